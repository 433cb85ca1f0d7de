package dev.loci.server.spi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
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
  private static final JsonFactory FACTORY = new JsonFactory();

  private final String text;
  private final Map<String, String> raw;

  private JsonBody(String text, Map<String, String> raw) {
    this.text = text;
    this.raw = Collections.unmodifiableMap(raw);
  }

  /**
   * Parses {@code text} as one JSON object.
   *
   * @throws HttpProblem 400 {@code malformed-json} naming {@code body} if it is not
   */
  public static JsonBody parse(String text) {
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
        p.skipChildren();
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
      throw malformed("not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new JsonBody(text, members);
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
