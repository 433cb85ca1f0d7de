package dev.loci.internal;

/**
 * A quick check, without allocating, that a text is exactly one plain JSON value: what a trace's
 * content nearly always is. It accepts only a strict subset of what Jackson's parser accepts (RFC
 * 8259 JSON with no surrogate characters, nesting at most {@value #MAX_DEPTH} deep, numbers at most
 * {@value #MAX_NUMBER} characters, text at most {@value #MAX_LENGTH} characters); anything else,
 * valid or not, it leaves to Jackson ({@link Json#compactValue}), which then accepts or names the
 * error as before. Every write of a trace runs this on its caller's thread.
 */
final class SimpleJson {
  static final int MAX_DEPTH = 64;
  static final int MAX_NUMBER = 100;
  static final int MAX_LENGTH = 1 << 20;

  private final String s;
  private final int n;
  private int i;

  private SimpleJson(String s) {
    this.s = s;
    this.n = s.length();
  }

  /** Whether {@code text} is one JSON value this check vouches for; false means "ask Jackson". */
  static boolean isOneValue(String text) {
    if (text.length() > MAX_LENGTH) {
      return false;
    }
    SimpleJson p = new SimpleJson(text);
    p.whitespace();
    if (!p.value(0)) {
      return false;
    }
    p.whitespace();
    return p.i == p.n;
  }

  private void whitespace() {
    while (i < n) {
      char c = s.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      i++;
    }
  }

  private boolean value(int depth) {
    if (i >= n) {
      return false;
    }
    char c = s.charAt(i);
    return switch (c) {
      case '{' -> depth < MAX_DEPTH && object(depth + 1);
      case '[' -> depth < MAX_DEPTH && array(depth + 1);
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> (c == '-' || c >= '0' && c <= '9') && number();
    };
  }

  private boolean object(int depth) {
    i++; // '{'
    whitespace();
    if (i < n && s.charAt(i) == '}') {
      i++;
      return true;
    }
    while (true) {
      if (i >= n || s.charAt(i) != '"' || !string()) {
        return false;
      }
      whitespace();
      if (i >= n || s.charAt(i) != ':') {
        return false;
      }
      i++;
      whitespace();
      if (!value(depth)) {
        return false;
      }
      whitespace();
      if (i >= n) {
        return false;
      }
      char c = s.charAt(i++);
      if (c == '}') {
        return true;
      }
      if (c != ',') {
        return false;
      }
      whitespace();
    }
  }

  private boolean array(int depth) {
    i++; // '['
    whitespace();
    if (i < n && s.charAt(i) == ']') {
      i++;
      return true;
    }
    while (true) {
      if (!value(depth)) {
        return false;
      }
      whitespace();
      if (i >= n) {
        return false;
      }
      char c = s.charAt(i++);
      if (c == ']') {
        return true;
      }
      if (c != ',') {
        return false;
      }
      whitespace();
    }
  }

  private boolean string() {
    i++; // the opening quote
    while (i < n) {
      char c = s.charAt(i);
      if (c == '"') {
        i++;
        return true;
      }
      if (c < 0x20 || Character.isSurrogate(c)) {
        return false;
      }
      if (c == '\\') {
        if (i + 1 >= n) {
          return false;
        }
        char e = s.charAt(i + 1);
        if (e == 'u') {
          if (i + 6 > n) {
            return false;
          }
          int code = 0;
          for (int k = i + 2; k < i + 6; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0 || s.charAt(k) > 'f') {
              return false;
            }
            code = code * 16 + d;
          }
          if (Character.isSurrogate((char) code)) {
            return false;
          }
          i += 6;
          continue;
        }
        if ("\"\\/bfnrt".indexOf(e) < 0) {
          return false;
        }
        i += 2;
        continue;
      }
      i++;
    }
    return false;
  }

  private boolean number() {
    int start = i;
    if (s.charAt(i) == '-') {
      i++;
    }
    if (i >= n) {
      return false;
    }
    if (s.charAt(i) == '0') {
      i++;
    } else if (!digits()) {
      return false;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      if (!digits()) {
        return false;
      }
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      if (!digits()) {
        return false;
      }
    }
    return i - start <= MAX_NUMBER && endsToken();
  }

  /** One or more decimal digits. */
  private boolean digits() {
    int start = i;
    while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    return i > start;
  }

  private boolean literal(String word) {
    if (!s.startsWith(word, i)) {
      return false;
    }
    i += word.length();
    return endsToken();
  }

  /** Whether a number or literal ends here: at the end, whitespace or a structural character. */
  private boolean endsToken() {
    if (i >= n) {
      return true;
    }
    char c = s.charAt(i);
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}';
  }
}
