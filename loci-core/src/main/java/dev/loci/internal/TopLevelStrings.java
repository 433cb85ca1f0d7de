package dev.loci.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the strings of one top-level array member of a JSON object, by a single pass over the text
 * that builds nothing for the members it skips. It runs on every applied write that names a subject
 * (under the engine's exclusive access), where a general parser's setup cost more than the scan
 * itself.
 *
 * <p>The text is one JSON value, as every stored content is (checked when it was written); text
 * that turns out not to be a JSON object, or that breaks off, reads as naming nothing. As a parser
 * building a tree would, the last of duplicate members wins (also when it is no array), and array
 * elements that are not strings are skipped.
 */
final class TopLevelStrings {
  private final String s;
  private int i;

  private TopLevelStrings(String s) {
    this.s = s;
  }

  /** The string elements of top-level member {@code name} of object {@code json}, if any. */
  static List<String> of(String json, String name) {
    try {
      return new TopLevelStrings(json).member(name);
    } catch (Malformed e) {
      return List.of();
    }
  }

  private List<String> member(String name) {
    if (next() != '{') {
      return List.of();
    }
    i++;
    List<String> out = List.of();
    if (next() == '}') {
      return out;
    }
    while (true) {
      if (next() != '"') {
        throw Malformed.INSTANCE;
      }
      boolean wanted = string(null, name);
      if (next() != ':') {
        throw Malformed.INSTANCE;
      }
      i++;
      if (wanted && next() == '[') {
        out = strings();
      } else {
        skipValue();
        out = wanted ? List.of() : out;
      }
      char c = next();
      i++;
      if (c == '}') {
        return out;
      }
      if (c != ',') {
        throw Malformed.INSTANCE;
      }
    }
  }

  /** The string elements of the array at {@link #i}, which is at its {@code [}. */
  private List<String> strings() {
    i++;
    List<String> out = new ArrayList<>(2);
    if (next() == ']') {
      i++;
      return out;
    }
    while (true) {
      if (next() == '"') {
        StringBuilder value = new StringBuilder(16);
        string(value, null);
        out.add(value.toString());
      } else {
        skipValue();
      }
      char c = next();
      i++;
      if (c == ']') {
        return out;
      }
      if (c != ',') {
        throw Malformed.INSTANCE;
      }
    }
  }

  /**
   * Reads the string at {@link #i} (its opening quote) and moves past it: into {@code value} if not
   * null; returns whether it equals {@code expected} (false if that is null).
   */
  private boolean string(StringBuilder value, String expected) {
    int start = ++i;
    StringBuilder decoded = value;
    while (true) {
      char c = at(i);
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        if (decoded == null) {
          decoded = new StringBuilder(s.length() - start);
        }
        decoded.append(s, start, i);
        int length = Json.unescape(s, i, decoded);
        if (length < 0) {
          throw Malformed.INSTANCE;
        }
        i += length;
        start = i;
      } else {
        i++;
      }
    }
    int end = i++;
    if (decoded == null) {
      return expected != null
          && end - start == expected.length()
          && s.regionMatches(start, expected, 0, expected.length());
    }
    decoded.append(s, start, end);
    return expected != null && decoded.toString().equals(expected);
  }

  /**
   * Moves past the value at {@link #i}: a string, an object or array with all it holds, or a
   * literal.
   */
  private void skipValue() {
    char c = next();
    if (c == '"') {
      string(null, null);
      return;
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      do {
        c = at(i);
        if (c == '"') {
          string(null, null);
          continue;
        }
        if (c == '{' || c == '[') {
          depth++;
        } else if (c == '}' || c == ']') {
          depth--;
        }
        i++;
      } while (depth > 0);
      return;
    }
    int start = i;
    while (i < s.length() && ",}] \t\n\r".indexOf(s.charAt(i)) < 0) {
      i++;
    }
    if (i == start) {
      throw Malformed.INSTANCE;
    }
  }

  /** The next character that is not whitespace, {@link #i} moved to it. */
  private char next() {
    while (true) {
      char c = at(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return c;
      }
      i++;
    }
  }

  private char at(int k) {
    if (k >= s.length()) {
      throw Malformed.INSTANCE;
    }
    return s.charAt(k);
  }

  /** The text is not what a JSON object would be at this point; carries no stack trace. */
  private static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Malformed INSTANCE = new Malformed();

    private Malformed() {
      super(null, null, false, false);
    }
  }
}
