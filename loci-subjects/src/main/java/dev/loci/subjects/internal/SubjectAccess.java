package dev.loci.subjects.internal;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.StorageException;
import dev.loci.internal.UuidV7;
import dev.loci.subjects.AuditVerification;
import dev.loci.subjects.ErasureReport;
import dev.loci.subjects.Expiry;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectManifest;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.SweepReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/** The work behind {@link dev.loci.subjects.Subjects} that needs the layer's internals. */
public final class SubjectAccess {
  private static final UuidV7 IDS = new UuidV7();

  private SubjectAccess() {}

  private static Path dataDir(SubjectLayer layer) {
    return layer
        .dataDir()
        .orElseThrow(
            () -> new IllegalStateException("this Loci keeps no audit logs (no data dir)"));
  }

  /** The lines of the log of subject {@code ref}, after writing every pending entry. */
  public static List<String> lines(Loci loci, String ref) throws IOException {
    SubjectLayer layer = loci.layer(SubjectLayer.class);
    Path f = AuditLog.file(SubjectLayer.auditDir(dataDir(layer)), ref);
    hold(loci, layer);
    try {
      return Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.of();
    } finally {
      layer.releaseAudit();
    }
  }

  /** Verifies the logs of {@code ref}, or of every subject. */
  public static AuditVerification verify(Loci loci, SubjectLayer layer, Optional<String> ref) {
    Path dir = dataDir(layer);
    Map<String, Long> expected =
        loci.executor()
            .read(
                () -> {
                  layer.holdAudit();
                  return layer.expectedAuditEntries();
                });
    try {
      AuditChains.Verification v;
      AuditKeys keys = AuditKeys.read(SubjectLayer.keyFile(dir));
      if (ref.isPresent()) {
        v =
            AuditChains.verify(
                SubjectLayer.auditDir(dir),
                keys,
                Optional.of(List.of(ref.get())),
                Map.of(ref.get(), expected.getOrDefault(ref.get(), 0L)));
      } else {
        Set<String> all = new TreeSet<>(expected.keySet());
        all.removeIf(r -> expected.get(r) == 0);
        all.addAll(new AuditLog(SubjectLayer.auditDir(dir), keys).refs());
        v =
            AuditChains.verify(
                SubjectLayer.auditDir(dir), keys, Optional.of(List.copyOf(all)), expected);
      }
      return new AuditVerification(v.logs(), v.entries(), v.problems());
    } catch (IOException e) {
      throw new StorageException("cannot read the audit logs: " + e.getMessage(), e);
    } finally {
      layer.releaseAudit();
    }
  }

  /** Writes the queued entries and holds further writes; the caller must release. */
  private static void hold(Loci loci, SubjectLayer layer) {
    loci.executor()
        .read(
            () -> {
              layer.holdAudit();
              return null;
            });
  }

  /** Rotates the audit key under exclusive access; returns the new key id. */
  public static String rotateKey(Loci loci, SubjectLayer layer) {
    dataDir(layer);
    return loci.executor()
        .read(
            () -> {
              synchronized (layer) {
                try {
                  return layer.rotateKey()[1];
                } catch (IOException e) {
                  throw new StorageException("cannot rotate the audit key: " + e.getMessage(), e);
                }
              }
            });
  }

  /** Erases subject {@code id}'s records in {@code scope}. */
  public static ErasureReport erase(
      Loci loci,
      SubjectLayer layer,
      NamespaceScope scope,
      Namespace ns,
      String id,
      String holder,
      String reason) {
    if (loci.sharedHead().isPresent()) {
      loci.catchUp(); // list the records the other servers wrote until now too
    }
    SubjectManifest m = loci.executor().read(() -> layer.manifest(id, scope));
    if (m.policy().legalHold()) {
      throw new dev.loci.ConflictException(
          "subject_id: the subject is under a legal hold, which keeps every record; lift the hold"
              + " (set a policy without legal_hold) before erasing");
    }
    List<String> keys = new ArrayList<>();
    for (HeldRecord r : m.records()) {
      keys.add(SubjectLayer.qualified(r.layer(), r.namespace(), r.id()));
    }
    Eraser.Intent intent =
        new Eraser.Intent(
            IDS.next(Instant.now()).toString(),
            Optional.of(SubjectLayer.ref(id)),
            "erased",
            holder,
            reason,
            ns,
            keys);
    return Eraser.run(loci, layer, intent);
  }

  /** The retention sweep. */
  public static SweepReport sweep(
      Loci loci, SubjectLayer layer, Optional<NamespaceScope> scope, Instant now, boolean dryRun) {
    List<Expiry> expired = new ArrayList<>();
    int[] held = {0};
    loci.executor()
        .read(
            () -> {
              Map<String, List<HeldRecord>> all = layer.allHeld();
              Map<String, HeldRecord> byKey = new LinkedHashMap<>();
              all.values()
                  .forEach(
                      list ->
                          list.stream()
                              .filter(r -> scope.map(x -> x.contains(r.namespace())).orElse(true))
                              .forEach(
                                  r ->
                                      byKey.putIfAbsent(
                                          SubjectLayer.qualified(r.layer(), r.namespace(), r.id()),
                                          r)));
              byKey.forEach(
                  (q, r) -> {
                    Set<String> refs = layer.subjectsOf(q);
                    OptionalInt days = OptionalInt.empty();
                    String rule = "namespace";
                    boolean hold = false;
                    for (String ref : refs) {
                      SubjectPolicy p = layer.subjectPolicy(ref);
                      hold |= p.legalHold();
                      if (p.retainDays().isPresent()
                          && (days.isEmpty() || p.retainDays().getAsInt() < days.getAsInt())) {
                        days = p.retainDays();
                        rule = "subject";
                      }
                    }
                    if (days.isEmpty()) {
                      days = layer.namespacePolicy(r.namespace()).retainDays();
                    }
                    if (days.isPresent()
                        && r.lastWrite().plus(Duration.ofDays(days.getAsInt())).isBefore(now)) {
                      if (hold) {
                        held[0]++;
                      } else {
                        expired.add(new Expiry(r, days.getAsInt(), rule));
                      }
                    }
                  });
              return null;
            });
    if (!dryRun) {
      Map<Namespace, List<String>> byNs = new LinkedHashMap<>();
      for (Expiry e : expired) {
        HeldRecord r = e.record();
        byNs.computeIfAbsent(r.namespace(), k -> new ArrayList<>())
            .add(SubjectLayer.qualified(r.layer(), r.namespace(), r.id()));
      }
      byNs.forEach(
          (ns, keys) ->
              Eraser.run(
                  loci,
                  layer,
                  new Eraser.Intent(
                      IDS.next(Instant.now()).toString(),
                      Optional.empty(),
                      "expired",
                      "retention",
                      "past retention at " + now,
                      ns,
                      List.copyOf(new LinkedHashSet<>(keys)))));
    }
    return new SweepReport(dryRun, expired, held[0]);
  }
}
