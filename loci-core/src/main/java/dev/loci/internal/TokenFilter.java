package dev.loci.internal;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Tells, without decoding a JSON line, whether it may hold one of a set of strings as a whole JSON
 * string value: it walks the line's strings (honouring escapes) and compares those of a matching
 * length. A set with a string that JSON would escape (a quote, a backslash, a control character,
 * anything outside printable ASCII) cannot be matched on raw bytes, so such a filter, like an empty
 * one, lets every line through. Immutable.
 */
final class TokenFilter {
  private final Set<String> tokens;
  private final boolean[] lengths;

  private TokenFilter(Set<String> tokens, boolean[] lengths) {
    this.tokens = tokens;
    this.lengths = lengths;
  }

  static TokenFilter of(Set<String> tokens) {
    int max = 0;
    for (String t : tokens) {
      if (t.isEmpty() || !t.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')) {
        return new TokenFilter(Set.of(), new boolean[0]);
      }
      max = Math.max(max, t.length());
    }
    boolean[] lengths = new boolean[max + 1];
    tokens.forEach(t -> lengths[t.length()] = true);
    return new TokenFilter(new HashSet<>(tokens), lengths);
  }

  /** Whether the line in {@code buf[off, off+len)} may hold one of the tokens (always, if none). */
  boolean mayHold(byte[] buf, int off, int len) {
    if (tokens.isEmpty()) {
      return true;
    }
    int end = off + len;
    int i = off;
    while (i < end) {
      if (buf[i] != '"') {
        i++;
        continue;
      }
      int start = ++i;
      boolean escaped = false;
      while (i < end && buf[i] != '"') {
        if (buf[i] == '\\') {
          escaped = true;
          i++;
        }
        i++;
      }
      int n = i - start;
      if (!escaped
          && n < lengths.length
          && lengths[n]
          && tokens.contains(new String(buf, start, n, StandardCharsets.US_ASCII))) {
        return true;
      }
      i++;
    }
    return false;
  }
}
