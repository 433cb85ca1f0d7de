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
    return restore(file, h -> null);
  }

  /** The checks of a whole file read: header, end line, checksum, record count, then version. */
  private static void checkEnd(
      Path file, Header header, long records, CRC32C crc, String footer, long footerOffset) {
    if (header == null) {
      throw new CorruptJournalException(file, 0, "empty file, no header");
    }
    if (footer == null) {
      throw new CorruptJournalException(file, -1, "no end line: the file is incomplete");
    }
    JsonNode end;
    try {
      end = Json.MAPPER.readTree(footer);
    } catch (IOException e) {
      throw new CorruptJournalException(file, footerOffset, "end line is not JSON");
    }
    String expected = String.format("%08x", crc.getValue());
    if (!expected.equals(end.path("crc32c").asText())) {
      throw new CorruptJournalException(
          file,
          footerOffset,
          "crc32c mismatch: end line says "
              + end.path("crc32c").asText()
              + ", content is "
              + expected);
    }
    if (end.path("records").asLong(-1) != records) {
      throw new CorruptJournalException(
          file,
          footerOffset,
          "end line counts " + end.path("records").asLong(-1) + " records, file has " + records);
    }
    // only an intact file can be of an unknown version; a damaged version digit is damage
    if (header.version() != VERSION) {
      throw new StorageException(
          "snapshot "
              + file
              + " is format "
              + FORMAT
              + " version "
              + header.version()
              + "; this Loci reads version "
              + VERSION
              + " only. Use a Loci release that reads it, or move the file away to rebuild from"
              + " the journal");
    }
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

  /** Receives the records of a snapshot as they are read. */
  @FunctionalInterface
  public interface RecordSink {
    /**
     * One record of {@code layer}: its JSON text is {@code len} UTF-8 bytes of {@code buf} from
     * {@code off}, valid only during the call.
     */
    void record(String layer, byte[] buf, int off, int len);
  }

  /**
   * Reads a snapshot in one pass, checking it as {@link #check} does while it passes the records
   * on: {@code start} gets the header (of a version this build reads) and returns where the records
   * go. Each record's bytes are passed from the read buffer, not copied. If the file turns out
   * damaged, records were passed before that was known: the caller forgets them when this throws
   * {@link CorruptJournalException}. A failure of {@code start} or of the sink is thrown once the
   * file is known to be intact (a damaged file is reported as damaged, whatever its records did).
   *
   * @throws CorruptJournalException if the file is damaged or incomplete
   * @throws StorageException if the file is of a format or version this build does not read
   */
  public static Header restore(Path file, java.util.function.Function<Header, RecordSink> start) {
    Header[] header = new Header[1];
    long[] records = {0};
    CRC32C crc = new CRC32C();
    String[] footer = new String[1];
    long[] footerOffset = {-1};
    RecordSink[] sink = new RecordSink[1];
    RuntimeException[] failed = new RuntimeException[1];
    String[] layer = {""};
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
              if (header[0].version() == VERSION) {
                try {
                  sink[0] = start.apply(header[0]);
                } catch (RuntimeException e) {
                  failed[0] = e;
                }
              }
            } else if (startsWith(buf, off, len, FOOTER_START)) {
              footer[0] = new String(buf, off, len, UTF_8);
              footerOffset[0] = offset;
              return;
            } else {
              records[0]++;
              if (sink[0] != null && failed[0] == null) {
                try {
                  pass(file, offset, buf, off, len, layer, sink[0]);
                } catch (RuntimeException e) {
                  failed[0] = e;
                }
              }
            }
            crc.update(buf, off, len);
            crc.update('\n');
          });
    } catch (IOException e) {
      throw new StorageException("cannot read snapshot " + file + ": " + e.getMessage(), e);
    }
    checkEnd(file, header[0], records[0], crc, footer[0], footerOffset[0]);
    if (failed[0] != null) {
      throw failed[0];
    }
    return header[0];
  }

  /** Passes one record line to {@code sink}; {@code layer} caches the last layer name. */
  private static void pass(
      Path file, long offset, byte[] buf, int off, int len, String[] layer, RecordSink sink) {
    int nameStart = off + LAYER_START.length();
    int nameEnd = nameStart;
    while (nameEnd < off + len && buf[nameEnd] != '"') {
      nameEnd++;
    }
    int data = nameEnd + DATA_START.length();
    if (!startsWith(buf, off, len, LAYER_START)
        || !startsWith(buf, nameEnd, off + len - nameEnd, DATA_START)
        || data >= off + len
        || buf[off + len - 1] != '}') {
      throw new CorruptJournalException(file, offset, "not a snapshot record line");
    }
    String name = layer[0];
    if (!sameAscii(name, buf, nameStart, nameEnd)) {
      name = new String(buf, nameStart, nameEnd - nameStart, UTF_8);
      layer[0] = name;
    }
    sink.record(name, buf, data, off + len - 1 - data);
  }

  private static boolean sameAscii(String s, byte[] buf, int from, int to) {
    if (s.length() != to - from) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (buf[from + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the records of a snapshot, checking it as {@link #restore} does, passing each as text
   * with its layer name.
   */
  public static void load(Path file, BiConsumer<String, String> records) {
    restore(
        file,
        h -> (layer, buf, off, len) -> records.accept(layer, new String(buf, off, len, UTF_8)));
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
