package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.internal.Directories;
import dev.loci.internal.Json;
import dev.loci.subjects.ErasureReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Erasure, crash-safe. An erasure first writes its intent (which records, for whom, why) to {@code
 * <data>/subjects/erasures/<id>.json}, durably; then has the engine rewrite the journal without the
 * records' content, erase them from every layer's state and files and replace the snapshots ({@link
 * Loci#eraseRecords}); then records {@code subjects.erased}; then deletes the intent. Every step is
 * atomic and idempotent, so a crash anywhere leaves the intent behind and the next open runs it
 * again to the end ({@link #completePending}). The intent holds record keys and the subject's
 * reference, never content or the subject id.
 *
 * <p>Over a journal that other servers share (PostgreSQL) the rewrite and the {@code
 * subjects.erased} event are one transaction ({@link Loci#eraseShared}): all or nothing, so the
 * intent only makes the next open try again an erasure that failed. The event orders the erasure
 * ({@link SubjectLayer#erases}): every server erases the records from its layers' state and files
 * and replaces its snapshots when it applies it.
 */
final class Eraser {
  private static final System.Logger LOG = System.getLogger(Eraser.class.getName());

  private Eraser() {}

  /** One erasure to run: what, for whom, by whom, why. */
  record Intent(
      String id,
      Optional<String> ref,
      String action,
      String holder,
      String reason,
      Namespace ns,
      List<String> records) {

    ObjectNode toJson() {
      ObjectNode n = Json.object();
      n.put("id", id);
      ref.ifPresent(r -> n.put("ref", r));
      n.put("action", action);
      n.put("holder", holder);
      n.put("reason", reason);
      n.put("ns", ns.value());
      ArrayNode recs = n.putArray("records");
      records.forEach(recs::add);
      return n;
    }

    static Intent fromJson(JsonNode n) {
      List<String> recs = new ArrayList<>();
      n.path("records").forEach(r -> recs.add(r.asText()));
      return new Intent(
          n.path("id").asText(),
          Optional.ofNullable(n.get("ref")).map(JsonNode::asText),
          n.path("action").asText(),
          n.path("holder").asText(),
          n.path("reason").asText(),
          Namespace.of(n.path("ns").asText()),
          recs);
    }
  }

  /** Writes {@code intent} durably, then runs it. */
  static ErasureReport run(Loci loci, SubjectLayer layer, Intent intent) {
    long start = System.nanoTime();
    Optional<Path> file = layer.dataDir().map(d -> write(SubjectLayer.intentDir(d), intent));
    long rewritten = complete(loci, layer, intent);
    file.ifPresent(Eraser::delete);
    return new ErasureReport(
        intent.records().size(), rewritten, Duration.ofNanos(System.nanoTime() - start));
  }

  /** Runs every intent a crash left behind, oldest first. */
  static void completePending(Loci loci, SubjectLayer layer) {
    Optional<Path> dir = layer.dataDir().map(SubjectLayer::intentDir);
    if (dir.isEmpty() || !Files.isDirectory(dir.get())) {
      return;
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir.get())) {
      List<Path> all = s.sorted().toList();
      // an intent cut short before its rename was never acted on: the erasure did not start
      for (Path p : all) {
        if (p.toString().endsWith(".json.tmp")) {
          LOG.log(System.Logger.Level.WARNING, "dropping an unfinished erasure intent " + p);
          Files.delete(p);
          Directories.sync(dir.get());
        }
      }
      files = all.stream().filter(p -> p.toString().endsWith(".json")).toList();
    } catch (IOException e) {
      throw new StorageException("cannot list pending erasures: " + e.getMessage(), e);
    }
    for (Path f : files) {
      Intent intent;
      try {
        intent = Intent.fromJson(Json.MAPPER.readTree(Files.readString(f)));
      } catch (IOException | RuntimeException e) {
        throw new StorageException(
            "pending erasure "
                + f
                + " cannot be read ("
                + e.getMessage()
                + "); refusing to open "
                + "rather than leave an erasure half done",
            e);
      }
      LOG.log(System.Logger.Level.WARNING, "completing erasure " + intent.id() + " cut short");
      complete(loci, layer, intent);
      delete(f);
    }
  }

  private static long complete(Loci loci, SubjectLayer layer, Intent intent) {
    Map<String, Set<String>> byLayer = new TreeMap<>();
    for (String q : intent.records()) {
      int bar = q.indexOf('|');
      byLayer.computeIfAbsent(q.substring(0, bar), k -> new TreeSet<>()).add(q.substring(bar + 1));
    }
    if (loci.sharedHead().isPresent()) {
      // one transaction rewrites the rows and records the erasure, which every server applies
      return loci.eraseShared(byLayer, intent.ns(), ctx -> layer.decideErased(intent, true));
    }
    long rewritten = byLayer.isEmpty() ? 0 : loci.eraseRecords(byLayer);
    if (!loci.executor().read(() -> layer.completed(intent.id()))) {
      loci.executor().execute(intent.ns(), loci.actor(), ctx -> layer.decideErased(intent, false));
    }
    return rewritten;
  }

  static Path write(Path dir, Intent intent) {
    try {
      Path f = dir.resolve(intent.id() + ".json");
      Directories.replace(f, Json.write(intent.toJson()).getBytes(StandardCharsets.UTF_8), ".tmp");
      return f;
    } catch (IOException e) {
      throw new StorageException("cannot record the erasure intent: " + e.getMessage(), e);
    }
  }

  private static void delete(Path f) {
    try {
      Files.deleteIfExists(f);
      Directories.sync(f.getParent());
    } catch (IOException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "erasure done but its intent " + f + " could not be deleted; it will run again: " + e);
    }
  }
}
