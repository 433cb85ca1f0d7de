package dev.loci.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one Jackson configuration Loci uses, and JSON validation for caller content. */
public final class Json {
  /** Shared, thread-safe mapper: compact output, strict about trailing tokens. */
  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private Json() {}

  /** A new empty object node. */
  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** Serializes a tree to compact JSON text. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Quotes and escapes {@code s} as a JSON string literal. */
  public static String quote(String s) {
    // room for a few escapes (JSON content quoted as a string escapes each of its quotes)
    return appendQuoted(new StringBuilder(s.length() + 18 + (s.length() >> 3)), s).toString();
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * Appends {@code s} as a JSON string literal, escaping what JSON requires (quote, backslash,
   * control characters) and lone surrogates, which UTF-8 cannot carry, and nothing else. The write
   * path builds journal lines with this instead of a tree, which it would otherwise do millions of
   * times.
   */
  public static StringBuilder appendQuoted(StringBuilder out, String s) {
    out.append('"');
    int n = s.length();
    int run = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++; // a valid pair encodes to UTF-8 as it is
        continue;
      }
      out.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> // other controls, and lone surrogates, which UTF-8 cannot carry
            out.append("\\u")
                .append(HEX[c >> 12 & 0xF])
                .append(HEX[c >> 8 & 0xF])
                .append(HEX[c >> 4 & 0xF])
                .append(HEX[c & 0xF]);
      }
    }
    return out.append(s, run, n).append('"');
  }

  /**
   * Appends to {@code out} the character of the JSON escape whose backslash is at {@code k} of
   * {@code s}; returns the escape's length, or -1 if it is not a valid escape. For the decoders
   * that read strings by hand on hot paths.
   */
  public static int unescape(String s, int k, StringBuilder out) {
    if (k + 1 >= s.length()) {
      return -1;
    }
    char e = s.charAt(k + 1);
    switch (e) {
      case '"', '\\', '/' -> out.append(e);
      case 'b' -> out.append('\b');
      case 'f' -> out.append('\f');
      case 'n' -> out.append('\n');
      case 'r' -> out.append('\r');
      case 't' -> out.append('\t');
      case 'u' -> {
        if (k + 6 > s.length()) {
          return -1;
        }
        int v = 0;
        for (int h = k + 2; h < k + 6; h++) {
          int d = JsonBytes.hex(s.charAt(h));
          if (d < 0) {
            return -1;
          }
          v = v << 4 | d;
        }
        out.append((char) v);
        return 6;
      }
      default -> {
        return -1;
      }
    }
    return 2;
  }

  /**
   * Checks that {@code text} is exactly one JSON value and returns it with the whitespace between
   * tokens removed. Numbers, strings and key order are kept byte for byte.
   *
   * @param field the caller's name for the value, used in the error
   * @throws InvalidRequestException naming {@code field} if the text is not one JSON value
   */
  public static String compactValue(String text, String field) {
    if (SimpleJson.isOneValue(text)) {
      return stripWhitespace(text); // plain JSON: no parser needed to vouch for it
    }
    return compactWithJackson(text, field);
  }

  /** {@link #compactValue} through Jackson's parser: any text, and the error if it is not JSON. */
  static String compactWithJackson(String text, String field) {
    if (text.isBlank()) {
      throw new InvalidRequestException(field, "expected a JSON value, found an empty string");
    }
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new InvalidRequestException(field, "expected a JSON value, found none");
      }
      parser.skipChildren();
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        throw new InvalidRequestException(
            field,
            "expected exactly one JSON value, found more after it at character "
                + parser.currentTokenLocation().getCharOffset());
      }
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          field, "expected valid JSON, found an error: " + errorText(e));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return stripWhitespace(text);
  }

  /**
   * {@code text} without the whitespace between tokens: {@code text} itself when it has none (the
   * usual case, compact JSON from a client), else a copy made through one char array.
   */
  static String stripWhitespace(String text) {
    int n = text.length();
    int first = firstWhitespaceOutsideStrings(text);
    if (first == n) {
      return text;
    }
    char[] out = new char[n];
    text.getChars(0, first, out, 0);
    int o = first;
    boolean inString = false;
    boolean escaped = false;
    for (int i = first; i < n; i++) {
      char c = text.charAt(i);
      if (inString) {
        out[o++] = c;
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
        out[o++] = c;
      } else if (!isWhitespace(c)) {
        out[o++] = c;
      }
    }
    return new String(out, 0, o);
  }

  /** The index of the first whitespace character between tokens, or the length if none. */
  private static int firstWhitespaceOutsideStrings(String text) {
    int n = text.length();
    boolean inString = false;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++; // the escaped character cannot end the string
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (isWhitespace(c)) {
        return i;
      }
    }
    return n;
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private static final java.util.regex.Pattern SOURCE =
      java.util.regex.Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

  /**
   * The parser's account of a JSON syntax error in words a client can act on: Jackson's message
   * without its source description (which names a Java setting in backquotes), with the line and
   * column where it stopped.
   */
  public static String errorText(JsonProcessingException e) {
    String message = String.valueOf(e.getOriginalMessage());
    message = SOURCE.matcher(message).replaceAll("line $1, column $2").replace('`', '\'');
    com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
    return at == null || at.getLineNr() < 1
        ? message
        : message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }
}
