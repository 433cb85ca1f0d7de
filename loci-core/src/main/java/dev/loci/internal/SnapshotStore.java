package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.CorruptJournalException;
import dev.loci.StorageException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Snapshot files: the state of every layer at one sequence number, in {@code
 * <data>/snapshots/<20-digit seq>.snapshot}.
 *
 * <p>Format {@value #FORMAT} version {@value #VERSION}, JSON lines:
 *
 * <pre>
 * {"magic":"LOCI-SNAPSHOT","format":"loci.snapshot","version":1,"seq":N,"ts":"...","layers":{"trace":1}}
 * {"layer":"trace","data":{...}}          one line per record
 * {"end":true,"records":R,"crc32c":"..."} CRC-32C of every byte before this line
 * </pre>
 *
 * A file is written under a temporary name, fsynced, renamed atomically and the directory fsynced,
 * so a reader sees a whole snapshot or none. The framing (header first, checksummed end line last)
 * is the same in every version; readers check it first and then refuse versions they do not know by
 * name.
 */
public final class SnapshotStore {
  /** The first field of every snapshot. */
  public static final String MAGIC = "LOCI-SNAPSHOT";

  /** The format name in the header. */
  public static final String FORMAT = "loci.snapshot";

  /** The only format version this build reads and writes. */
  public static final int VERSION = 1;

  private static final Pattern NAME = Pattern.compile("\\d{20}\\.snapshot");
  private static final String FOOTER_START = "{\"end\":true";
  // record lines are {"layer":"<name>","data":<record>}; layer names are [a-z0-9_]
  private static final String LAYER_START = "{\"layer\":\"";
  private static final String DATA_START = "\",\"data\":";
  private static final java.util.concurrent.atomic.AtomicLong TEMP_IDS =
      new java.util.concurrent.atomic.AtomicLong();

  private final Path dir;

  /** What a snapshot's header says. */
  public record Header(int version, long seq, Instant ts, Map<String, Integer> layers) {
    /** Copies the layer versions. */
    public Header {
      layers = Map.copyOf(layers);
    }
  }

  private SnapshotStore(Path dir) {
    this.dir = dir;
  }

  /** Opens (creating) the snapshot directory and removes temporary files of interrupted writes. */
  public static SnapshotStore open(Path dir) {
    try {
      Directories.create(dir);
      try (Stream<Path> s = Files.list(dir)) {
        for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()) {
          Files.deleteIfExists(p);
        }
      }
      return new SnapshotStore(dir);
    } catch (IOException e) {
      throw new StorageException(
          "cannot open snapshot directory " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The snapshot directory. */
  public Path directory() {
    return dir;
  }

  /** Snapshot files in {@code dir}, newest first. */
  public static List<Path> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> NAME.matcher(p.getFileName().toString()).matches())
          .sorted(Comparator.reverseOrder())
          .toList();
    }
  }

  /** Snapshot files, newest first. */
  public List<Path> list() {
    try {
      return list(dir);
    } catch (IOException e) {
      throw new StorageException("cannot list snapshots in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The sequence number a snapshot file covers, from its name. */
  public static long seqOf(Path file) {
    return Long.parseLong(file.getFileName().toString().substring(0, 20));
  }

  /**
   * Writes a snapshot atomically and returns its path.
   *
   * @param layers each layer's name, snapshot version and captured records
   */
  public Path write(
      long seq, Instant ts, Map<String, Map.Entry<Integer, Iterable<String>>> layers) {
    String name = String.format("%020d.snapshot", seq);
    Path target = dir.resolve(name);
    Path tmp =
        dir.resolve(
            "."
                + name
                + "."
                + ProcessHandle.current().pid()
                + "-"
                + TEMP_IDS.incrementAndGet()
                + ".tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        CRC32C crc = new CRC32C();
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
        ObjectNode header = Json.object();
        header.put("magic", MAGIC);
        header.put("format", FORMAT);
        header.put("version", VERSION);
        header.put("seq", seq);
        header.put("ts", Timestamps.format(ts));
        ObjectNode versions = header.putObject("layers");
        layers.forEach((layer, v) -> versions.put(layer, v.getKey()));
        writeLine(out, crc, Json.MAPPER.writeValueAsBytes(header));
        long records = 0;
        for (Map.Entry<String, Map.Entry<Integer, Iterable<String>>> layer : layers.entrySet()) {
          String prefix = LAYER_START + layer.getKey() + DATA_START;
          for (String record : layer.getValue().getValue()) {
            writeLine(out, crc, (prefix + record + "}").getBytes(UTF_8));
            records++;
          }
        }
        String footer =
            FOOTER_START
                + ",\"records\":"
                + records
                + ",\"crc32c\":\""
                + String.format("%08x", crc.getValue())
                + "\"}\n";
        out.write(footer.getBytes(UTF_8));
        out.flush();
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Directories.sync(dir);
      return target;
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw new StorageException("cannot write snapshot " + target + ": " + e.getMessage(), e);
    }
  }

  private static void writeLine(OutputStream out, CRC32C crc, byte[] line) throws IOException {
    out.write(line);
    out.write('\n');
    crc.update(line, 0, line.length);
    crc.update('\n');
  }

  /**
   * Checks a snapshot file end to end and returns its header.
   *
   * @throws CorruptJournalException if the file is damaged or incomplete
   * @throws StorageException if the file is of a format or version this build does not read
   */
  public static Header check(Path file) {
    Header[] header = new Header[1];
    long[] records = {0};
    CRC32C crc = new CRC32C();
    String[] footer = new String[1];
    long[] footerOffset = {-1};
    try {
      LineScanner.scan(
          file,
          (offset, buf, off, len, terminated) -> {
            if (footer[0] != null) {
              throw new CorruptJournalException(file, offset, "data after the end line");
            }
            if (!terminated) {
              throw new CorruptJournalException(file, offset, "file ends without its end line");
            }
            if (header[0] == null) {
              header[0] = parseHeader(file, buf, off, len);
            } else if (startsWith(buf, off, len, FOOTER_START)) {
              footer[0] = new String(buf, off, len, UTF_8);
              footerOffset[0] = offset;
              return;
            } else {
              records[0]++;
            }
            crc.update(buf, off, len);
            crc.update('\n');
          });
    } catch (IOException e) {
      throw new StorageException("cannot read snapshot " + file + ": " + e.getMessage(), e);
    }
    if (header[0] == null) {
      throw new CorruptJournalException(file, 0, "empty file, no header");
    }
    if (footer[0] == null) {
      throw new CorruptJournalException(file, -1, "no end line: the file is incomplete");
    }
    JsonNode end;
    try {
      end = Json.MAPPER.readTree(footer[0]);
    } catch (IOException e) {
      throw new CorruptJournalException(file, footerOffset[0], "end line is not JSON");
    }
    String expected = String.format("%08x", crc.getValue());
    if (!expected.equals(end.path("crc32c").asText())) {
      throw new CorruptJournalException(
          file,
          footerOffset[0],
          "crc32c mismatch: end line says "
              + end.path("crc32c").asText()
              + ", content is "
              + expected);
    }
    if (end.path("records").asLong(-1) != records[0]) {
      throw new CorruptJournalException(
          file,
          footerOffset[0],
          "end line counts " + end.path("records").asLong(-1) + " records, file has " + records[0]);
    }
    // only an intact file can be of an unknown version; a damaged version digit is damage
    if (header[0].version() != VERSION) {
      throw new StorageException(
          "snapshot "
              + file
              + " is format "
              + FORMAT
              + " version "
              + header[0].version()
              + "; this Loci reads version "
              + VERSION
              + " only. Use a Loci release that reads it, or move the file away to rebuild from"
              + " the journal");
    }
    return header[0];
  }

  private static Header parseHeader(Path file, byte[] buf, int off, int len) {
    JsonNode h;
    try {
      h = Json.MAPPER.readTree(buf, off, len);
    } catch (IOException e) {
      throw new CorruptJournalException(file, 0, "header is not JSON");
    }
    if (!MAGIC.equals(h.path("magic").asText()) || !FORMAT.equals(h.path("format").asText())) {
      throw new CorruptJournalException(
          file, 0, "header lacks magic " + MAGIC + " and format " + FORMAT);
    }
    int version = h.path("version").asInt(-1);
    Map<String, Integer> layers = new LinkedHashMap<>();
    h.path("layers").fields().forEachRemaining(e -> layers.put(e.getKey(), e.getValue().asInt()));
    try {
      return new Header(
          version, h.path("seq").asLong(), Timestamps.parse(h.path("ts").asText()), layers);
    } catch (RuntimeException e) {
      throw new CorruptJournalException(file, 0, "header has a bad ts: " + e.getMessage());
    }
  }

  private static boolean startsWith(byte[] buf, int off, int len, String prefix) {
    if (len < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (buf[off + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the records of a snapshot already {@link #check checked}, passing each with its layer
   * name.
   */
  public static void load(Path file, BiConsumer<String, String> records) {
    boolean[] first = {true};
    try {
      LineScanner.scan(
          file,
          (offset, buf, off, len, terminated) -> {
            if (first[0]) {
              first[0] = false;
              return;
            }
            if (startsWith(buf, off, len, FOOTER_START)) {
              return;
            }
            String line = new String(buf, off, len, UTF_8);
            int data = line.indexOf(DATA_START);
            if (!line.startsWith(LAYER_START) || data < 0 || !line.endsWith("}")) {
              throw new CorruptJournalException(file, offset, "not a snapshot record line");
            }
            records.accept(
                line.substring(LAYER_START.length(), data),
                line.substring(data + DATA_START.length(), line.length() - 1));
          });
    } catch (IOException e) {
      throw new StorageException("cannot read snapshot " + file + ": " + e.getMessage(), e);
    }
  }

  /** Deletes every snapshot older than {@code seq}; returns how many. */
  public int deleteOlderThan(long seq) {
    int deleted = 0;
    try {
      for (Path p : new ArrayList<>(list())) {
        if (seqOf(p) < seq) {
          Files.deleteIfExists(p);
          deleted++;
        }
      }
      if (deleted > 0) {
        Directories.sync(dir);
      }
      return deleted;
    } catch (IOException e) {
      throw new StorageException(
          "cannot delete old snapshots in " + dir + ": " + e.getMessage(), e);
    }
  }
}
