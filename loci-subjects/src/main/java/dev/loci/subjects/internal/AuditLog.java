package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.internal.Json;
import dev.loci.internal.LineBuffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The per-subject audit logs: one JSON Lines file per subject, {@code
 * <data>/subjects/audit/<ref>.jsonl}, named by the subject's reference so that no file name holds a
 * subject id. Each line is an {@link AuditEntry} followed by {@code key} (the id of the key that
 * signed it), {@code prev} (the previous line's mac, 64 zeros for the first) and {@code mac}:
 * HMAC-SHA256 under that key of the line's UTF-8 bytes before {@code ,"mac":"}. So an edit,
 * deletion, swap or insertion of a line breaks the chain, and a truncation leaves fewer entries
 * than the subject index counted, which {@link AuditChains#verify} checks too.
 *
 * <p>Lines are signed as they are appended, and go to the {@link AuditSpool} first: one write for
 * every subject's lines of a batch. The subject files are brought up to date from the spool before
 * anything reads them ({@link #materialize}) and, forced, at a {@link #checkpoint} (the spool past
 * {@link #CHECKPOINT_BYTES}, or close), after which the spool is emptied. {@link #force} (before
 * every snapshot, after which those batches are no longer replayed) forces the spool alone. Entries
 * come from the journal, so appends need no fsync of their own: an entry lost with a crash is made
 * again when the journal is replayed, and an entry already in the file (by its number) is not
 * written twice. On first use a spool left by a crash is applied to the files (each subject's lines
 * from the one that follows the file's last line). Not thread-safe; the audit writer serializes it.
 */
final class AuditLog {
  static final String ZERO_MAC = "0".repeat(64);
  static final long CHECKPOINT_BYTES = 64L << 20;
  static final byte[] MAC_MARK = ",\"mac\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] LINE_END = "\"}\n".getBytes(StandardCharsets.UTF_8);
  private static final Pattern FILE = Pattern.compile("[0-9a-f]{64}\\.jsonl");

  private final Path dir;
  private final AuditKeys keys;
  private final AuditSpool spool;
  private final SubjectFiles files;
  private final Map<String, Tail> tails = new HashMap<>();
  private final LineBuffer buffer = new LineBuffer(1 << 16); // the lines of one append
  private long materialized; // spool bytes already written to the subject files
  private final Set<String> dirty = new HashSet<>(); // written since the last checkpoint
  private boolean recovered;

  /** The last entry of a file: its number and mac, and the key that signed it. */
  private record Tail(long n, String mac, String key) {}

  AuditLog(Path dir, AuditKeys keys) {
    this.dir = dir;
    this.keys = keys;
    this.spool = new AuditSpool(dir);
    this.files = new SubjectFiles(dir);
  }

  static Path file(Path dir, String ref) {
    return dir.resolve(ref + ".jsonl");
  }

  /**
   * Appends {@code entries} (each subject's in order), each unless its subject's log already holds
   * an entry of its number, with one write to the spool. A failure may leave some written:
   * appending them again skips those (by number).
   */
  void appendAll(List<AuditEntry> entries) throws IOException {
    recover();
    Signed out = new Signed(buffer);
    StringBuilder head = new StringBuilder(512);
    AuditEntry.Times times = new AuditEntry.Times();
    for (AuditEntry e : entries) {
      Tail tail = out.tails.get(e.ref());
      if (tail == null) {
        tail = tail(e.ref());
      }
      if (e.n() > tail.n()) {
        head.setLength(0);
        line(e.ref(), e.head(head, times), e.n(), tail, out);
      }
    }
    spool(out);
  }

  /** Records a key rotation at the end of every subject's chain, signed by the new key. */
  void rotated(String oldKey, String newKey) throws IOException {
    materialize();
    Signed out = new Signed(buffer);
    for (String ref : refs()) {
      Tail tail = tail(ref);
      StringBuilder head = new StringBuilder("{\"n\":").append(tail.n());
      AuditEntry.field(head, "action", "key_rotated");
      AuditEntry.field(head, "old_key", oldKey);
      AuditEntry.field(head, "new_key", newKey);
      line(ref, head, tail.n(), tail, out);
    }
    spool(out);
  }

  /** Lines signed in one append, not yet spooled, and the subjects' tails after them. */
  private static final class Signed {
    final LineBuffer spooled;
    final Map<String, Tail> tails = new HashMap<>();

    Signed(LineBuffer spooled) {
      spooled.clear();
      this.spooled = spooled;
    }
  }

  /**
   * Signs the unclosed JSON object {@code head} (entry number {@code n}) as the entry after {@code
   * tail}: adds key and prev and the mac of the bytes so far, and the line to {@code out}.
   */
  private Tail line(String ref, StringBuilder head, long n, Tail tail, Signed out) {
    String key = keys.current();
    AuditEntry.field(head, "key", key);
    AuditEntry.field(head, "prev", tail.mac());
    LineBuffer b = out.spooled;
    b.utf8(ref).put((byte) ' ');
    int start = b.size();
    b.utf8(head); // the signed bytes, signed where they lie
    String mac = keys.mac(key, b.array(), start, b.size() - start);
    b.put(MAC_MARK).utf8(mac).put(LINE_END);
    Tail after = new Tail(n, mac, key);
    out.tails.put(ref, after);
    return after;
  }

  /**
   * Writes {@code out} to the spool in one write; only then are its tails the subjects' tails (a
   * failed write changes nothing: the entries are appended, and signed, again).
   */
  private void spool(Signed out) throws IOException {
    if (out.spooled.size() == 0) {
      return;
    }
    spool.append(out.spooled.view());
    tails.putAll(out.tails);
    if (spool.size() > CHECKPOINT_BYTES) {
      checkpoint();
    }
  }

  /**
   * Writes the lines spooled since the last call to their subjects' files (not forced: they stay in
   * the spool until a checkpoint), read back from the spool rather than kept in memory.
   */
  void materialize() throws IOException {
    recover();
    write(false);
  }

  /**
   * Writes the spooled lines, forces every subject file written since the last checkpoint (many at
   * once, see {@link SubjectFiles}), then empties the spool.
   */
  void checkpoint() throws IOException {
    recover();
    write(true);
    spool.truncate();
    materialized = 0;
  }

  /**
   * Appends the lines spooled since {@link #materialized} to their subjects' files, with {@code
   * force} forcing them and every file written since the last checkpoint.
   */
  private void write(boolean force) throws IOException {
    long size = spool.size();
    Map<String, byte[]> lines = size > materialized ? spool.readByRef(materialized) : Map.of();
    try {
      files.append(lines, force, dirty);
    } catch (IOException e) {
      // Some files may hold their lines now and others not (a full disk): appending every line
      // again would write some twice and break their chains. The spool still holds them all, so
      // the next use works out from each file's last line what it lacks, as after a crash.
      dirty.addAll(lines.keySet());
      tails.clear();
      recovered = false;
      throw e;
    }
    materialized = size;
    if (force) {
      dirty.clear();
    } else {
      dirty.addAll(lines.keySet());
    }
  }

  /**
   * Applies a spool left by a crash, or by a write to the subject files that failed part-way, once:
   * each subject's spooled lines from the one that follows the last line of its file (by {@code
   * prev}; lines already there are skipped), then a checkpoint. A subject whose file ends in a line
   * the spool does not lead on from is left as it is (verify reports it).
   */
  private void recover() throws IOException {
    if (recovered) {
      return;
    }
    recovered = true;
    List<AuditSpool.Line> lines = spool.read();
    if (lines.isEmpty()) {
      if (spool.size() > 0) {
        spool.truncate(); // only a torn line
      }
      return;
    }
    Map<String, List<byte[]>> byRef = new LinkedHashMap<>();
    lines.forEach(l -> byRef.computeIfAbsent(l.ref(), k -> new ArrayList<>()).add(l.line()));
    Map<String, byte[]> toAppend = new LinkedHashMap<>();
    for (Map.Entry<String, List<byte[]>> r : byRef.entrySet()) {
      Tail tail = tail(r.getKey());
      ByteArrayOutputStream add = new ByteArrayOutputStream();
      boolean following = false;
      for (byte[] line : r.getValue()) {
        JsonNode e;
        try {
          e = Json.MAPPER.readTree(new String(line, UTF8));
        } catch (IOException notJson) {
          continue; // a write cut short by a failure, then overwritten by the next: not a line
        }
        if (!following && e.path("prev").asText().equals(tail.mac())) {
          following = true;
        }
        if (following) {
          add.writeBytes(line);
          tail = new Tail(e.path("n").asLong(), e.path("mac").asText(), e.path("key").asText());
        }
      }
      if (add.size() > 0) {
        toAppend.put(r.getKey(), add.toByteArray());
      }
      tails.put(r.getKey(), tail);
    }
    files.append(toAppend, true, dirty); // and files written unforced before a failed write
    dirty.clear();
    spool.truncate(); // every spooled line is in its file now, forced
    materialized = 0;
  }

  private Tail tail(String ref) throws IOException {
    Tail t = tails.get(ref);
    if (t == null) {
      t = new Tail(0, ZERO_MAC, "");
      Path f = file(dir, ref);
      if (Files.exists(f)) {
        byte[] bytes = Files.readAllBytes(f);
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] != '\n') {
          // a torn final line from a crash: cut it; the journal makes the entry again
          int cut = lastIndexOf(bytes, end, (byte) '\n') + 1;
          try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
          }
          end = cut;
        }
        if (end > 0) {
          int start = lastIndexOf(bytes, end - 1, (byte) '\n') + 1;
          JsonNode last = Json.MAPPER.readTree(new String(bytes, start, end - 1 - start, UTF8));
          t =
              new Tail(
                  last.path("n").asLong(), last.path("mac").asText(), last.path("key").asText());
        }
      }
      tails.put(ref, t);
    }
    return t;
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;

  private static int lastIndexOf(byte[] b, int before, byte v) {
    for (int i = before - 1; i >= 0; i--) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Forces every line appended so far to disk: the spool alone, since every line not in a forced
   * subject file is in it.
   */
  void force() throws IOException {
    spool.force();
  }

  /** The subject references that have a log. */
  List<String> refs() throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> FILE.matcher(n).matches())
          .map(n -> n.substring(0, 64))
          .sorted()
          .toList();
    }
  }

  void close() {
    spool.close();
  }
}
