package dev.loci.server.spi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A request body that is one JSON object. Each member is kept as the exact text the client sent, so
 * an opaque value such as trace content reaches the store byte for byte (numbers keep their
 * spelling). Immutable.
 */
public final class JsonBody {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(Limits.MAX_DEPTH + 1)
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNameLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private final String text;
  private final Map<String, String> raw;

  private JsonBody(String text, Map<String, String> raw) {
    this.text = text;
    this.raw = Collections.unmodifiableMap(raw);
  }

  /**
   * The shape a body may have: how deep it nests, how long a string (or member name) and how many
   * items an array may hold, at every level, opaque members such as trace content included.
   *
   * @param depth the deepest nesting of objects and arrays, the body's own object counting 1
   * @param stringChars the most characters of one string or member name
   * @param arrayItems the most items of one array
   */
  public record Limits(int depth, int stringChars, int arrayItems) {
    /** The deepest nesting the parser allows at all. */
    public static final int MAX_DEPTH = 1_000;

    /** Checks the limits are in range. */
    public Limits {
      if (depth < 1 || depth > MAX_DEPTH || stringChars < 1 || arrayItems < 1) {
        throw new IllegalArgumentException(
            "expected depth 1 to " + MAX_DEPTH + " and positive sizes, found " + this);
      }
    }

    /** The parser's own bounds: nesting 1,000, strings and arrays as large as the body. */
    public static Limits lenient() {
      return new Limits(MAX_DEPTH, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }
  }

  /**
   * Parses {@code text} as one JSON object, within the parser's own bounds only.
   *
   * @throws HttpProblem 400 {@code malformed-json} naming {@code body} if it is not
   */
  public static JsonBody parse(String text) {
    return parse(text, Limits.lenient());
  }

  /**
   * Parses {@code text} as one JSON object of the shape {@code limits} allows. A member name that
   * appears twice in any object, however deep, is refused as at the top level: which value counts
   * would depend on the reader.
   *
   * @throws HttpProblem 400 {@code malformed-json} naming {@code body} if it is not one JSON object
   *     or repeats a member name; 422 {@code limit-exceeded} naming the top-level member if it is
   *     over a limit
   */
  public static JsonBody parse(String text, Limits limits) {
    Map<String, String> members = new LinkedHashMap<>();
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw malformed("expected a JSON object");
      }
      JsonToken t = p.nextToken();
      while (t == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        int start = (int) p.currentTokenLocation().getCharOffset();
        checkName(name, name, name, limits);
        new ShapeCheck(p, name, limits).walk();
        t = p.nextToken();
        if (t == null) {
          throw malformed("the object is not closed");
        }
        int end = (int) p.currentTokenLocation().getCharOffset();
        if (members.put(name, trimSeparator(text.substring(start, end))) != null) {
          throw malformed("member '" + name + "' appears twice");
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw malformed("expected a member name or '}'");
      }
      if (p.nextToken() != null) {
        throw malformed("expected nothing after the object");
      }
    } catch (JsonProcessingException e) {
      throw malformed("not valid JSON: " + dev.loci.internal.Json.errorText(e));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new JsonBody(text, members);
  }

  private static void checkName(String field, String path, String name, Limits limits) {
    if (name.length() > limits.stringChars()) {
      throw ShapeCheck.over(
          field,
          path,
          "a member name of " + name.length() + " characters",
          "json_string_chars",
          limits.stringChars());
    }
  }

  /**
   * Walks one member's value token by token (as {@code skipChildren} would), checking its nesting,
   * string lengths, array sizes and member names; the path of where it is reads like {@code
   * content.items[3].name}.
   */
  private static final class ShapeCheck {
    private final JsonParser p;
    private final String member;
    private final Limits limits;
    private final ArrayList<Object> path = new ArrayList<>(); // member names and array indexes
    private final ArrayList<Set<String>> names = new ArrayList<>(); // null for an array

    ShapeCheck(JsonParser p, String member, Limits limits) {
      this.p = p;
      this.member = member;
      this.limits = limits;
    }

    void walk() throws IOException {
      JsonToken t = p.currentToken();
      while (true) {
        if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          names.remove(names.size() - 1);
          path.remove(path.size() - 1);
        } else if (t == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          path.set(path.size() - 1, name);
          if (name.length() > limits.stringChars()) {
            checkName(member, where(), name, limits);
          }
          if (!names.get(names.size() - 1).add(name)) {
            throw malformed("member '" + where() + "' appears twice");
          }
        } else {
          countItem();
          if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            if (names.size() + 2 > limits.depth()) { // the body's object is level 1
              throw over(where(), "nesting deeper than that", "json_depth", limits.depth());
            }
            names.add(t == JsonToken.START_OBJECT ? new java.util.HashSet<>() : null);
            path.add(t == JsonToken.START_OBJECT ? "" : -1);
          } else if (t == JsonToken.VALUE_STRING && p.getTextLength() > limits.stringChars()) {
            throw over(
                where(),
                "a string of " + p.getTextLength() + " characters",
                "json_string_chars",
                limits.stringChars());
          }
        }
        if (names.isEmpty()) {
          return;
        }
        t = p.nextToken();
        if (t == null) {
          throw malformed("the object is not closed");
        }
      }
    }

    private void countItem() {
      if (names.isEmpty() || names.get(names.size() - 1) != null) {
        return;
      }
      int i = (Integer) path.get(path.size() - 1) + 1;
      path.set(path.size() - 1, i);
      if (i >= limits.arrayItems()) {
        path.set(path.size() - 1, limits.arrayItems());
        throw over(
            where(),
            "more than " + limits.arrayItems() + " items",
            "json_array_items",
            limits.arrayItems());
      }
    }

    private String where() {
      StringBuilder b = new StringBuilder(member);
      for (Object o : path) {
        if (o instanceof Integer i) {
          b.append('[').append(Math.max(i, 0)).append(']');
        } else {
          b.append('.').append(o);
        }
      }
      return b.toString();
    }

    private HttpProblem over(String at, String found, String key, int limit) {
      return ShapeCheck.over(member, at, found, key, limit);
    }

    static HttpProblem over(String field, String at, String found, String key, int limit) {
      return new HttpProblem(
          422,
          "limit-exceeded",
          "Limit exceeded",
          at + ": " + found + " is over limits." + key + " (" + limit + ")",
          Optional.of(field));
    }
  }

  private static String trimSeparator(String s) {
    String t = s.stripTrailing();
    if (t.endsWith(",")) {
      t = t.substring(0, t.length() - 1).stripTrailing();
    }
    return t;
  }

  private static HttpProblem malformed(String detail) {
    return new HttpProblem(
        400, "malformed-json", "Malformed JSON", "body: " + detail, Optional.of("body"));
  }

  /**
   * Checks that every member is one of {@code allowed}.
   *
   * @throws HttpProblem 400 naming the first unknown member
   */
  public JsonBody allowOnly(Set<String> allowed) {
    for (String name : raw.keySet()) {
      if (!allowed.contains(name)) {
        throw HttpProblem.invalidField(
            name, name + ": unknown member; expected only " + String.join(", ", sorted(allowed)));
      }
    }
    return this;
  }

  /** The whole object as the client sent it, for a route that hands it to the engine as is. */
  public String text() {
    return text;
  }

  /** The exact JSON text of member {@code name}, if present. */
  public Optional<String> rawValue(String name) {
    return Optional.ofNullable(raw.get(name));
  }

  /**
   * The JSON text of a required member.
   *
   * @throws HttpProblem 400 naming {@code name} if absent
   */
  public String requireRaw(String name) {
    return rawValue(name)
        .orElseThrow(() -> HttpProblem.invalidField(name, name + ": required, found nothing"));
  }

  /**
   * A member that must be a JSON string, if present.
   *
   * @throws HttpProblem 400 naming {@code name} if it is another type
   */
  public Optional<String> string(String name) {
    return rawValue(name).map(v -> parseString(name, v));
  }

  /**
   * A member that must be an array of strings, if present.
   *
   * @throws HttpProblem 400 naming {@code name} if it is another type
   */
  public Optional<List<String>> strings(String name) {
    return rawValue(name)
        .map(
            v -> {
              List<String> out = new ArrayList<>();
              try (JsonParser p = FACTORY.createParser(v)) {
                if (p.nextToken() != JsonToken.START_ARRAY) {
                  throw notStrings(name);
                }
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
                  out.add(p.getText());
                }
                if (t != JsonToken.END_ARRAY) {
                  throw notStrings(name);
                }
              } catch (IOException e) {
                throw notStrings(name);
              }
              return out;
            });
  }

  /**
   * A member that must be {@code true} or {@code false}, if present.
   *
   * @throws HttpProblem 400 naming {@code name} if it is another value
   */
  public Optional<Boolean> bool(String name) {
    return rawValue(name)
        .map(
            v ->
                switch (v) {
                  case "true" -> true;
                  case "false" -> false;
                  default ->
                      throw HttpProblem.invalidField(
                          name, name + ": expected true or false, found " + shorten(v));
                });
  }

  /**
   * A member that must be an integer within {@code int} range, if present.
   *
   * @throws HttpProblem 400 naming {@code name} if it is another value
   */
  public Optional<Integer> integer(String name) {
    return rawValue(name)
        .map(
            v -> {
              try (JsonParser p = FACTORY.createParser(v)) {
                if (p.nextToken() == JsonToken.VALUE_NUMBER_INT
                    && p.getNumberType() == JsonParser.NumberType.INT) {
                  return p.getIntValue();
                }
              } catch (IOException e) {
                // reported below
              }
              throw HttpProblem.invalidField(
                  name, name + ": expected an integer, found " + shorten(v));
            });
  }

  private static String parseString(String name, String json) {
    try (JsonParser p = FACTORY.createParser(json)) {
      if (p.nextToken() == JsonToken.VALUE_STRING) {
        return p.getText();
      }
    } catch (IOException e) {
      // reported below
    }
    throw HttpProblem.invalidField(name, name + ": expected a string, found " + shorten(json));
  }

  private static HttpProblem notStrings(String name) {
    return HttpProblem.invalidField(name, name + ": expected an array of strings");
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  private static List<String> sorted(Set<String> s) {
    List<String> l = new ArrayList<>(s);
    Collections.sort(l);
    return l;
  }
}
