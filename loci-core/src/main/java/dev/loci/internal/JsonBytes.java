package dev.loci.internal;

/**
 * A validating scanner over JSON in UTF-8 bytes, for the hand-written decoders of replay ({@link
 * JournalLineDecoder}): it finds where a value ends without building tokens or strings.
 *
 * <p>It is deliberately strict and says "not sure" (-1) rather than guess: it accepts only JSON
 * that Jackson accepts too (RFC 8259 grammar, strings of valid UTF-8 without raw control
 * characters, nesting at most {@link #MAX_DEPTH} deep, numbers of at most {@link #MAX_NUMBER}
 * characters). A caller that gets -1 hands the whole input to Jackson, which gives the verdict and
 * the error message, so the fast path never changes what is accepted or how it reads.
 */
final class JsonBytes {
  /** Deeper nesting is left to Jackson, which has its own limit. */
  static final int MAX_DEPTH = 64;

  /** Longer numbers are left to Jackson, which has its own limit. */
  static final int MAX_NUMBER = 100;

  private JsonBytes() {}

  /**
   * The index just after the JSON value that starts at {@code i} (no whitespace before it), or -1
   * if there is no value there this scanner is sure of.
   */
  static int skipValue(byte[] b, int i, int end) {
    return value(b, i, end, 0);
  }

  private static int value(byte[] b, int i, int end, int depth) {
    if (i >= end) {
      return -1;
    }
    return switch (b[i]) {
      case '"' -> skipString(b, i, end);
      case '{' -> depth >= MAX_DEPTH ? -1 : object(b, i + 1, end, depth + 1);
      case '[' -> depth >= MAX_DEPTH ? -1 : array(b, i + 1, end, depth + 1);
      case 't' -> literal(b, i, end, TRUE);
      case 'f' -> literal(b, i, end, FALSE);
      case 'n' -> literal(b, i, end, NULL);
      default -> number(b, i, end);
    };
  }

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private static int object(byte[] b, int i, int end, int depth) {
    i = spaces(b, i, end);
    if (i < end && b[i] == '}') {
      return i + 1;
    }
    while (true) {
      if (i >= end || b[i] != '"') {
        return -1;
      }
      i = spaces(b, skipString(b, i, end), end);
      if (i < 0 || i >= end || b[i] != ':') {
        return -1;
      }
      i = value(b, spaces(b, i + 1, end), end, depth);
      if (i < 0) {
        return -1;
      }
      i = spaces(b, i, end);
      if (i >= end) {
        return -1;
      }
      if (b[i] == '}') {
        return i + 1;
      }
      if (b[i] != ',') {
        return -1;
      }
      i = spaces(b, i + 1, end);
    }
  }

  private static int array(byte[] b, int i, int end, int depth) {
    i = spaces(b, i, end);
    if (i < end && b[i] == ']') {
      return i + 1;
    }
    while (true) {
      i = value(b, i, end, depth);
      if (i < 0) {
        return -1;
      }
      i = spaces(b, i, end);
      if (i >= end) {
        return -1;
      }
      if (b[i] == ']') {
        return i + 1;
      }
      if (b[i] != ',') {
        return -1;
      }
      i = spaces(b, i + 1, end);
    }
  }

  /** Skips JSON whitespace; -1 stays -1. */
  private static int spaces(byte[] b, int i, int end) {
    while (i >= 0 && i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
      i++;
    }
    return i;
  }

  private static int literal(byte[] b, int i, int end, byte[] word) {
    if (end - i < word.length) {
      return -1;
    }
    for (int k = 0; k < word.length; k++) {
      if (b[i + k] != word[k]) {
        return -1;
      }
    }
    int after = i + word.length;
    // "truex" is one bad token to Jackson, not true followed by junk
    return after < end && isLetterOrDigit(b[after]) ? -1 : after;
  }

  private static int number(byte[] b, int i, int end) {
    int start = i;
    if (i < end && b[i] == '-') {
      i++;
    }
    if (i >= end || !isDigit(b[i])) {
      return -1;
    }
    if (b[i] == '0') {
      i++;
    } else {
      while (i < end && isDigit(b[i])) {
        i++;
      }
    }
    if (i < end && b[i] == '.') {
      i++;
      if (i >= end || !isDigit(b[i])) {
        return -1;
      }
      while (i < end && isDigit(b[i])) {
        i++;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      if (i >= end || !isDigit(b[i])) {
        return -1;
      }
      while (i < end && isDigit(b[i])) {
        i++;
      }
    }
    if (i - start > MAX_NUMBER || i < end && (isLetterOrDigit(b[i]) || b[i] == '.')) {
      return -1;
    }
    return i;
  }

  /**
   * The index just after the string whose opening quote is at {@code i}, or -1 if it is not a
   * string of valid UTF-8 with valid escapes and no raw control characters.
   */
  static int skipString(byte[] b, int i, int end) {
    if (i < 0 || i >= end || b[i] != '"') {
      return -1;
    }
    i++;
    while (i < end) {
      int c = b[i];
      if (c == '"') {
        return i + 1;
      }
      if (c == '\\') {
        i = escape(b, i, end);
      } else if (c >= 0x20) {
        i++;
      } else if (c < 0) {
        i = utf8(b, i, end);
      } else {
        return -1; // a raw control character
      }
      if (i < 0) {
        return -1;
      }
    }
    return -1;
  }

  private static int escape(byte[] b, int i, int end) {
    if (i + 1 >= end) {
      return -1;
    }
    switch (b[i + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return i + 2;
      }
      case 'u' -> {
        if (i + 6 > end) {
          return -1;
        }
        for (int k = i + 2; k < i + 6; k++) {
          if (hex(b[k]) < 0) {
            return -1;
          }
        }
        return i + 6;
      }
      default -> {
        return -1;
      }
    }
  }

  /**
   * One multi-byte UTF-8 sequence, strictly: no overlong forms, surrogates or values past 10FFFF.
   */
  private static int utf8(byte[] b, int i, int end) {
    int c = b[i] & 0xFF;
    int n;
    int lo = 0x80;
    int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      return -1;
    }
    if (i + n >= end) {
      return -1;
    }
    int second = b[i + 1] & 0xFF;
    if (second < lo || second > hi) {
      return -1;
    }
    for (int k = i + 2; k <= i + n; k++) {
      int cont = b[k] & 0xFF;
      if (cont < 0x80 || cont > 0xBF) {
        return -1;
      }
    }
    return i + n + 1;
  }

  static int hex(int c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLetterOrDigit(int c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
  }
}
