package dev.loci.govern;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.internal.Json;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes the report of an ingestion wave's extraction pass to {@code
 * extraction-reports/<wave>/report.json} under the data directory: written to a temporary name,
 * forced, renamed atomically. The report is a record for the reviewer; the candidates themselves
 * are in the journal, so a report lost to a crash loses no candidate.
 */
final class WaveReports {
  private WaveReports() {}

  static Path write(Path dataDir, Namespace ns, List<ExtractionChunk> chunks, Extraction x) {
    String wave = x.wave().orElseThrow();
    Path dir = dataDir.resolve("extraction-reports").resolve(wave);
    ObjectNode report = Json.object();
    report.put("format", "loci-extraction-report");
    report.put("version", 1);
    report.put("namespace", ns.value());
    report.put("wave", wave);
    ArrayNode read = report.putArray("chunks");
    chunks.forEach(
        c -> {
          ObjectNode o = read.addObject().put("id", c.id()).put("characters", c.text().length());
          c.document().ifPresent(d -> o.put("document", d));
        });
    report.setAll(EntityWire.extraction(x));
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve("report.json.tmp");
      Path target = dir.resolve("report.json");
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(java.nio.ByteBuffer.wrap(Json.write(report).getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new StorageException("could not write the extraction report of wave " + wave, e);
    }
  }
}
