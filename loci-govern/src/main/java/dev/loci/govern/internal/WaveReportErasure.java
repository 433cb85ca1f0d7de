package dev.loci.govern.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.govern.Candidate;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.internal.Json;
import dev.loci.spi.SubjectMention;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What erasure does to the ingestion waves' reports ({@code extraction-reports/<wave>/report.json}
 * under the data directory): a report that lists an erased candidate (a memory or entity extracted
 * from a chunk about the erased person) is rewritten with that candidate as erasure leaves it
 * ({@link GovernErasure}), and the chunks it came from lose their document name; the rewrite goes
 * to a temporary file, is forced and renamed over the report, so a crash leaves the old or the new
 * report and a rerun of the erasure completes it. Reports that name no erased record are not
 * touched.
 */
final class WaveReportErasure {
  private WaveReportErasure() {}

  static void scrub(Path dataDir, Set<String> recordKeys) {
    Path root = dataDir.resolve("extraction-reports");
    if (recordKeys.isEmpty() || !Files.isDirectory(root)) {
      return;
    }
    List<Path> reports;
    try (Stream<Path> waves = Files.list(root)) {
      reports = waves.map(w -> w.resolve("report.json")).filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new StorageException("cannot list the extraction reports in " + root + ": " + e, e);
    }
    for (Path report : reports) {
      scrubOne(report, recordKeys);
    }
  }

  private static void scrubOne(Path report, Set<String> recordKeys) {
    ObjectNode n;
    try {
      n = (ObjectNode) Json.MAPPER.readTree(Files.readString(report, StandardCharsets.UTF_8));
    } catch (IOException | ClassCastException e) {
      throw new StorageException("cannot read extraction report " + report + ": " + e, e);
    }
    Namespace ns = Namespace.of(n.path("namespace").asText());
    Set<String> chunks = new HashSet<>();
    boolean changed = false;
    ArrayNode candidates = (ArrayNode) n.path("candidates");
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = EntityWire.candidate(candidates.get(i));
      if (!recordKeys.contains(SubjectMention.key(ns, c.id()))) {
        continue;
      }
      Candidate erased =
          c.memory().isPresent()
              ? Candidate.of(GovernErasure.erased(c.memory().get()))
              : Candidate.of(GovernErasure.erased(c.entity().orElseThrow()));
      ObjectNode out = EntityWire.candidate(erased);
      if (!out.equals(candidates.get(i))) {
        candidates.set(i, out);
        changed = true;
      }
      c.provenance().sourceChunk().ifPresent(chunks::add);
    }
    if (n.path("graduated").isArray()) {
      ArrayNode graduated = (ArrayNode) n.get("graduated");
      for (int i = 0; i < graduated.size(); i++) {
        Memory m = GovernWire.memory(graduated.get(i));
        if (recordKeys.contains(SubjectMention.key(ns, m.id()))) {
          ObjectNode out = GovernWire.memory(GovernErasure.erased(m));
          if (!out.equals(graduated.get(i))) {
            graduated.set(i, out);
            changed = true;
          }
        }
      }
    }
    for (JsonNode chunk : n.path("chunks")) {
      if (chunks.contains(chunk.path("id").asText()) && chunk.has("document")) {
        ((ObjectNode) chunk).remove("document");
        changed = true;
      }
    }
    if (changed) {
      write(report, Json.write(n));
    }
  }

  private static void write(Path report, String text) {
    Path tmp = report.resolveSibling("report.json.tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Files.move(tmp, report, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new StorageException("cannot rewrite extraction report " + report + ": " + e, e);
    }
  }
}
