package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.internal.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Verification of the per-subject audit logs that {@link AuditLog} writes: recomputes each file's
 * HMAC chain line by line and checks its entry count against the subject index. Reads the files
 * only (bring them up to date from the spool first). Stateless.
 */
final class AuditChains {
  private static final java.util.Set<String> ERASURES = java.util.Set.of("erased", "expired");

  private AuditChains() {}

  /** What {@link #verify} found. */
  record Verification(int logs, long entries, List<String> problems) {}

  /**
   * Recomputes the chains of {@code refs} (every log when empty) under {@code keys}, and checks
   * that each holds exactly the number of entries {@code expected} says (a missing number is not
   * checked).
   */
  static Verification verify(
      Path dir, AuditKeys keys, Optional<List<String>> refs, Map<String, Long> expected)
      throws IOException {
    List<String> which = refs.orElse(new AuditLog(dir, keys).refs());
    List<String> problems = new ArrayList<>();
    long entries = 0;
    for (String ref : which) {
      Path f = AuditLog.file(dir, ref);
      long[] count = {0, 0}; // entries, the last entry's number
      Optional<String> bad = Files.exists(f) ? verifyFile(f, keys, count) : Optional.empty();
      entries += count[0];
      if (bad.isPresent()) {
        problems.add(f.getFileName() + ": " + bad.get());
      } else if (expected.containsKey(ref) && expected.get(ref) != count[1]) {
        problems.add(
            f.getFileName()
                + ": the log ends at entry "
                + count[1]
                + " but the journal records "
                + expected.get(ref)
                + " (entries were truncated or are missing)");
      }
    }
    return new Verification(which.size(), entries, problems);
  }

  /** Checks one file's chain; returns the first problem, naming the line. */
  private static Optional<String> verifyFile(Path f, AuditKeys keys, long[] count)
      throws IOException {
    byte[] bytes = Files.readAllBytes(f);
    String prevMac = AuditLog.ZERO_MAC;
    String prevKey = null;
    long prevN = 0;
    int lineNo = 0;
    int start = 0;
    while (start < bytes.length) {
      int nl = indexOf(bytes, start, (byte) '\n');
      if (nl < 0) {
        return Optional.of("line " + (lineNo + 1) + " is cut short (no line end)");
      }
      lineNo++;
      String where = "line " + lineNo;
      int mark = indexOf(bytes, start, nl, AuditLog.MAC_MARK);
      if (mark < 0) {
        return Optional.of(where + " has no mac");
      }
      JsonNode e;
      try {
        e = Json.MAPPER.readTree(new String(bytes, start, nl - start, StandardCharsets.UTF_8));
      } catch (IOException ex) {
        return Optional.of(where + " is not JSON");
      }
      String key = e.path("key").asText();
      if (!keys.has(key)) {
        return Optional.of(where + " is signed by unknown key '" + key + "'");
      }
      byte[] head = java.util.Arrays.copyOfRange(bytes, start, mark);
      if (!keys.mac(key, head).equals(e.path("mac").asText())) {
        return Optional.of(where + " (entry " + e.path("n").asLong() + ") fails its mac: edited");
      }
      if (!e.path("prev").asText().equals(prevMac)) {
        return Optional.of(
            where + " (entry " + e.path("n").asLong() + ") does not follow the line before it");
      }
      boolean rotation = "key_rotated".equals(e.path("action").asText());
      long n = e.path("n").asLong();
      // a server that joined a shared journal after an erasure starts the subject's chain at the
      // erasure's entry (the entries before it named erased records it never saw); its mac covers
      // n and the empty previous mac, so cutting the head off a chain is still found above
      boolean joined = prevN == 0 && n > 1 && ERASURES.contains(e.path("action").asText());
      if (rotation ? n != prevN : n != prevN + 1 && !joined) {
        return Optional.of(
            where + " is entry " + n + " where entry " + (prevN + 1) + " was expected");
      }
      if (prevKey != null && !prevKey.equals(key) && !rotation) {
        return Optional.of(where + " changes key without a recorded rotation");
      }
      if (!rotation) {
        count[0]++;
        count[1] = n;
      }
      prevMac = e.path("mac").asText();
      prevKey = key;
      prevN = n;
      start = nl + 1;
    }
    return Optional.empty();
  }

  private static int indexOf(byte[] b, int from, byte v) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOf(byte[] b, int from, int to, byte[] mark) {
    outer:
    for (int i = to - mark.length; i >= from; i--) {
      for (int j = 0; j < mark.length; j++) {
        if (b[i + j] != mark[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
