package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.internal.Json;
import dev.loci.spi.BatchObserver;
import dev.loci.spi.Decision;
import dev.loci.spi.EgressPolicy;
import dev.loci.spi.ErasingEvents;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import dev.loci.subjects.Erasure;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectManifest;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.SubjectsWire;
import dev.loci.subjects.internal.SubjectIndex.Rec;
import dev.loci.subjects.internal.SubjectIndex.Subject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The subject index: which records of every other layer name each data subject, every version of
 * them, the subject's policy and erasure state, and (through {@link AuditLog}) the subject's
 * HMAC-chained audit log. It follows the other layers as a {@link BatchObserver}: each layer that
 * holds {@link SubjectRecords} says which records an event writes and whom they name; a record
 * keeps the subjects it ever named, and a revision inherits its predecessor's.
 *
 * <p>Subjects are keyed by their reference, the SHA-256 of the id, never by the id itself: the
 * subject layer's own events, snapshots and audit files hold no subject id, so erasing the records
 * that name a subject leaves no copy of the id behind.
 *
 * <p>Events: {@code subjects.policy_set} (a subject's policy), {@code subjects.ns_policy_set} (a
 * namespace's), {@code subjects.erased} (records erased for a subject or expired by retention, with
 * each affected subject's audit count at that point, so that a replay of the scrubbed journal lands
 * on the same counts).
 *
 * <p>Index upkeep off the write path ({@link IndexUpkeep}). What a batch wrote is read off its
 * events while the engine applies it ({@link #observe}, which may consult the other layers' state
 * as of that batch), but the index takes it in later: the change is queued, and whoever touches the
 * index next first applies every queued change, in order, under the index's lock. While recovering,
 * and without an audit writer ({@link SubjectAudit}), changes apply at once.
 */
public final class SubjectLayer implements Layer, BatchObserver, EgressPolicy, ErasingEvents {
  /** The layer's name and event prefix. */
  public static final String NAME = "subjects";

  static final String POLICY_SET = NAME + ".policy_set";
  static final String NS_POLICY_SET = NAME + ".ns_policy_set";
  static final String ERASED = NAME + ".erased";
  static final String AUDIT_EXPORTED = NAME + ".audit_exported";

  private static final int FLUSH_AT = 4096; // queued changes that wake the audit writer

  private final SubjectIndex index = new SubjectIndex(); // guarded by upkeep's lock
  private final IndexUpkeep upkeep = new IndexUpkeep(index);
  private final SubjectAudit audit = new SubjectAudit();
  private final BatchRecorder recorder = new BatchRecorder(index, audit::note);
  private volatile boolean live; // recovery is done: index changes may be queued
  private final Map<Namespace, SubjectPolicy> nsPolicies = new HashMap<>();
  private final Set<String> completedIntents = new LinkedHashSet<>();
  private Path dataDir;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  /** The reference of subject {@code id}: the SHA-256 of its UTF-8 bytes, in hex. */
  public static String ref(String id) {
    return SubjectIndex.ref(id);
  }

  static String qualified(String layer, Namespace ns, String id) {
    return layer + "|" + SubjectMention.key(ns, id);
  }

  // ---------------------------------------------------------------- wiring

  @Override
  public void bind(List<Layer> all) {
    recorder.bind(all);
  }

  @Override
  public void attach(Path dir) {
    this.dataDir = dir;
    audit.attach(dir, this::catchUpIndex);
  }

  static Path auditDir(Path dataDir) {
    return dataDir.resolve("subjects").resolve("audit");
  }

  static Path keyFile(Path dataDir) {
    return dataDir.resolve("keys").resolve("audit.keys");
  }

  static Path intentDir(Path dataDir) {
    return dataDir.resolve("subjects").resolve("erasures");
  }

  Optional<Path> dataDir() {
    return Optional.ofNullable(dataDir);
  }

  @Override
  public void started(dev.loci.Loci loci) {
    Eraser.completePending(loci, this);
  }

  /**
   * Writes every queued audit entry to its file now (they are otherwise written by a background
   * thread every second; the files are forced at snapshots and on close). The subjects benchmark
   * calls it to charge the audit log's writes to the writes that queued them.
   */
  public void writeAudit() {
    audit.flush();
  }

  /**
   * Writes every queued audit entry, brings every subject's log file up to date from the spool,
   * forces the files and empties the spool: what the audit writer does by itself each time the
   * spool passes 64 MiB, and on close. The subjects benchmark charges it to the writes.
   *
   * @throws dev.loci.StorageException if the logs cannot be written or forced
   */
  public void checkpointAudit() {
    audit.checkpoint();
  }

  // ---------------------------------------------------------------- reads

  /** The manifest of subject {@code id}, limited to the records in {@code scope}. */
  public SubjectManifest manifest(String id, NamespaceScope scope) {
    return manifest(id, scope::contains);
  }

  /**
   * The manifest of subject {@code id}, limited to the records in namespaces {@code in} accepts.
   */
  public SubjectManifest manifest(String id, java.util.function.Predicate<Namespace> in) {
    String ref = ref(id);
    return upkeep.indexed(() -> manifest(id, ref, in));
  }

  private SubjectManifest manifest(
      String id, String ref, java.util.function.Predicate<Namespace> in) {
    Subject s = index.get(ref);
    if (s == null) {
      return new SubjectManifest(
          id, List.of(), SubjectPolicy.NONE, Optional.empty(), Optional.empty(), 0);
    }
    List<HeldRecord> held = new ArrayList<>();
    for (Rec r : s.records) {
      if (in.test(r.ns)) {
        held.add(r.view(s));
      }
    }
    Optional<String> vertical = s.policy.vertical();
    for (int i = 0; vertical.isEmpty() && i < held.size(); i++) {
      vertical = namespacePolicy(held.get(i).namespace()).vertical();
    }
    return new SubjectManifest(
        id, held, s.policy, vertical, Optional.ofNullable(s.erasure), s.auditEntries);
  }

  /** The policy of namespace {@code ns}: its own, else its nearest ancestor's, else none. */
  public SubjectPolicy namespacePolicy(Namespace ns) {
    for (Optional<Namespace> n = Optional.of(ns); n.isPresent(); n = n.get().parent()) {
      SubjectPolicy p = nsPolicies.get(n.get());
      if (p != null) {
        return p;
      }
    }
    return SubjectPolicy.NONE;
  }

  /** The verticals whose content never leaves the machine. */
  public static final Set<String> LOCAL_ONLY = Set.of("healthcare");

  @Override
  public Optional<String> refusal(Namespace ns, java.util.Collection<String> subjectIds) {
    Optional<String> v = namespacePolicy(ns).vertical();
    if (v.isPresent() && LOCAL_ONLY.contains(v.get())) {
      return Optional.of(
          "namespace " + ns + " belongs to the " + v.get() + " vertical, which stays local");
    }
    for (String id : subjectIds) {
      Optional<String> sv = subjectPolicy(ref(id)).vertical();
      if (sv.isPresent() && LOCAL_ONLY.contains(sv.get())) {
        return Optional.of(
            "a subject it names belongs to the " + sv.get() + " vertical, which stays local");
      }
    }
    return Optional.empty();
  }

  /** The policy of the subject with reference {@code ref}. */
  SubjectPolicy subjectPolicy(String ref) {
    return upkeep.indexed(
        () -> {
          Subject s = index.get(ref);
          return s == null ? SubjectPolicy.NONE : s.policy;
        });
  }

  /** Every subject reference with its records, for the retention sweep. */
  Map<String, List<HeldRecord>> allHeld() {
    return upkeep.indexed(
        () -> {
          Map<String, List<HeldRecord>> out = new LinkedHashMap<>();
          index.forEach(s -> out.put(s.ref, s.records.stream().map(r -> r.view(s)).toList()));
          return out;
        });
  }

  /** The references of the subjects record {@code qualified} names. */
  Set<String> subjectsOf(String qualified) {
    return upkeep.indexed(() -> Set.copyOf(index.refsOf(qualified)));
  }

  /** How many subject ids the index remembers for their reference now. */
  int rememberedIds() {
    return upkeep.indexed(index::rememberedIds);
  }

  /** Whether the erasure with intent id {@code id} has been recorded. */
  boolean completed(String id) {
    return completedIntents.contains(id);
  }

  /** How many audit entries each subject's log should hold. */
  Map<String, Long> expectedAuditEntries() {
    return upkeep.indexed(
        () -> {
          Map<String, Long> out = new HashMap<>();
          index.forEach(s -> out.put(s.ref, s.auditEntries));
          return out;
        });
  }

  // ---------------------------------------------------------------- decisions

  public Decision<SubjectPolicy> decidePolicy(String ref, SubjectPolicy p, String holder) {
    ObjectNode d = SubjectsWire.policy(p);
    d.put("ref", ref);
    d.put("holder", holder);
    return new Decision<>(List.of(new Event(POLICY_SET, d)), Set.of("subject:" + ref), p);
  }

  public Decision<String> decideAuditExported(String ref, String holder) {
    ObjectNode d = Json.object();
    d.put("ref", ref);
    d.put("holder", holder);
    return new Decision<>(List.of(new Event(AUDIT_EXPORTED, d)), Set.of("subject:" + ref), ref);
  }

  public Decision<SubjectPolicy> decideNamespacePolicy(
      Namespace ns, SubjectPolicy p, String holder) {
    ObjectNode d = SubjectsWire.policy(p);
    d.put("holder", holder);
    return new Decision<>(List.of(new Event(NS_POLICY_SET, d)), Set.of("ns-policy:" + ns), p);
  }

  /**
   * Decides the event that records {@code intent} done: the records it erased, for its subject or
   * for retention, with every affected subject's audit count now; nothing if it is recorded
   * already. With {@code everywhere} (a shared journal), whoever applies the event erases the
   * records ({@link #erases}); otherwise they are erased before it is written.
   */
  Decision<Integer> decideErased(Eraser.Intent intent, boolean everywhere) {
    if (completedIntents.contains(intent.id())) {
      return new Decision<>(List.of(), Set.of(), intent.records().size());
    }
    ObjectNode d = Json.object();
    d.put("intent", intent.id());
    if (everywhere) {
      d.put("erase", true);
    }
    intent.ref().ifPresent(r -> d.put("ref", r));
    d.put("action", intent.action());
    d.put("holder", intent.holder());
    d.put("reason", intent.reason());
    ArrayNode recs = d.putArray("records");
    intent.records().forEach(recs::add);
    ObjectNode counts = d.putObject("counts");
    Set<String> affected = new LinkedHashSet<>();
    intent.ref().ifPresent(affected::add);
    upkeep.indexed(
        () -> {
          intent.records().forEach(q -> affected.addAll(index.refsOf(q)));
          for (String r : affected) {
            Subject s = index.get(r);
            counts.put(r, s == null ? 0 : s.auditEntries);
          }
          return null;
        });
    Set<String> keys = new LinkedHashSet<>();
    affected.forEach(r -> keys.add("subject:" + r));
    return new Decision<>(List.of(new Event(ERASED, d)), keys, intent.records().size());
  }

  /** The records a {@code subjects.erased} event of a shared journal erases where it is applied. */
  @Override
  public Map<String, Set<String>> erases(Event e) {
    if (!e.type().equals(ERASED) || !e.data().path("erase").asBoolean()) {
      return Map.of();
    }
    Map<String, Set<String>> byLayer = new HashMap<>();
    for (JsonNode q : e.data().path("records")) {
      String key = q.asText();
      int bar = key.indexOf('|');
      byLayer
          .computeIfAbsent(key.substring(0, bar), k -> new LinkedHashSet<>())
          .add(key.substring(bar + 1));
    }
    return byLayer;
  }

  static SubjectPolicy policyFrom(JsonNode d) {
    return new SubjectPolicy(
        d.has("retain_days") ? OptionalInt.of(d.path("retain_days").asInt()) : OptionalInt.empty(),
        d.path("legal_hold").asBoolean(),
        Optional.ofNullable(d.get("vertical")).map(JsonNode::asText),
        Optional.ofNullable(d.get("legal_basis")).map(JsonNode::asText));
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    List<Runnable> steps = new ArrayList<>();
    for (Event e : events) {
      JsonNode d = e.data();
      switch (e.type()) {
        case POLICY_SET -> {
          SubjectPolicy p = policyFrom(d);
          String ref = d.path("ref").asText();
          String holder = d.path("holder").asText();
          steps.add(
              () -> {
                Subject s = index.getOrAdd(ref);
                s.policy = p;
                audit.note(s, entry, "legal:" + holder, "policy_set", List.of());
              });
        }
        case NS_POLICY_SET -> {
          SubjectPolicy p = policyFrom(d);
          steps.add(() -> nsPolicies.put(entry.namespace(), p));
        }
        case ERASED -> steps.add(() -> applyErased(entry, d));
        case AUDIT_EXPORTED -> {
          String ref = d.path("ref").asText();
          String holder = d.path("holder").asText();
          steps.add(
              () ->
                  audit.note(
                      index.getOrAdd(ref),
                      entry,
                      "legal:" + holder,
                      "legal_read:audit_export",
                      List.of()));
        }
        default -> throw new IllegalStateException("unknown subjects event '" + e.type() + "'");
      }
    }
    return () -> upkeep.indexed(() -> steps.forEach(Runnable::run));
  }

  private void applyErased(JournalEntry entry, JsonNode d) {
    List<String> records = new ArrayList<>();
    d.path("records").forEach(n -> records.add(n.asText()));
    String action = d.path("action").asText();
    String holder = d.path("holder").asText();
    Optional<String> erasedRef = Optional.ofNullable(d.get("ref")).map(JsonNode::asText);
    List<Rec> gone = new ArrayList<>(records.size());
    for (String q : records) {
      Rec r = index.find(q);
      if (r != null) {
        gone.add(r);
      }
    }
    Set<Rec> goneSet = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    goneSet.addAll(gone);
    completedIntents.add(d.path("intent").asText());
    d.path("counts")
        .fields()
        .forEachRemaining(
            c -> {
              Subject s = index.getOrAdd(c.getKey());
              Set<Rec> held =
                  java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
              s.records.removeIf(r -> goneSet.contains(r) && held.add(r));
              List<AuditEntry.Touched> touched = new ArrayList<>();
              for (Rec r : gone) {
                if (held.remove(r)) {
                  touched.add(new AuditEntry.Touched(r.kind, r.id, 0));
                }
              }
              s.auditEntries = c.getValue().asLong();
              if (erasedRef.isPresent() && erasedRef.get().equals(c.getKey())) {
                s.erasure = new Erasure(entry.ts(), holder, records.size());
              }
              audit.note(s, entry, "legal:" + holder, action, touched);
            });
    gone.forEach(index::remove);
    index.forgetIds(); // no subject id the index saw outlives an erasure in its memory
  }

  @Override
  public Runnable observe(JournalEntry entry) {
    Runnable change = recorder.observe(entry);
    if (change == BatchRecorder.NOTHING) {
      return change;
    }
    return () -> {
      if (!live || !audit.attached()) {
        upkeep.indexed(change);
        return;
      }
      if (upkeep.queue(change) == FLUSH_AT) { // past IndexUpkeep.QUEUE_LIMIT, it applied them all
        audit.flushSoon();
      }
    };
  }

  @Override
  public void recovered(long appliedSeq) {
    live = true;
  }

  /** Applies every queued index change, in order. */
  void catchUpIndex() {
    upkeep.catchUp();
  }

  /**
   * Writes every queued audit entry and holds off further writes to the logs until {@link
   * #releaseAudit}, so that a reader sees whole files that match the counts. Call under the
   * engine's shared access, so that nothing is queued meanwhile.
   */
  void holdAudit() {
    audit.hold();
  }

  /** Ends {@link #holdAudit}. */
  void releaseAudit() {
    audit.release();
  }

  /** Rotates the audit key: a new key signs from now on, each chain records the rotation. */
  String[] rotateKey() throws IOException {
    return audit.rotateKey();
  }

  // ---------------------------------------------------------------- snapshots

  @Override
  public Iterable<String> capture() {
    audit.force(); // the snapshot ends replay of these batches: their entries must be on disk
    return upkeep.indexed(() -> SubjectSnapshots.capture(index, completedIntents, nsPolicies));
  }

  @Override
  public void restore(String record, int version) {
    upkeep.indexed(
        () ->
            SubjectSnapshots.restore(
                SnapshotRecords.read(Json.MAPPER, NAME, record, version, 1),
                index,
                completedIntents,
                nsPolicies));
  }

  @Override
  public void clear() {
    upkeep.clear();
    nsPolicies.clear();
    audit.clear();
    completedIntents.clear();
  }

  @Override
  public void close(long appliedSeq) {
    audit.close(appliedSeq);
  }
}
