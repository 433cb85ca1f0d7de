package dev.loci.pathway.internal;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.loci.InvalidRequestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Jackson configuration of the pathway wire format: snake_case names (the wire types name
 * theirs explicitly; results such as {@code PathwayStats} get theirs from the strategy), {@code
 * Optional} support, RFC 3339 timestamps (read with any offset, written in UTC by {@link
 * Instant#toString()}), JSON {@code null} or absent lists read as empty lists, trailing tokens
 * refused. Thread-safe.
 */
public final class PathwayJson {
  /** The shared, thread-safe mapper for pathway types. */
  public static final ObjectMapper MAPPER = createMapper();

  /** The token Jackson names in its message, the surest account of what was found. */
  private static final Pattern JACKSON_TOKEN = Pattern.compile("JsonToken\\.([A-Z_]+)");

  private static final Pattern WIRE_NAME = Pattern.compile("[a-z][a-z0-9_]*");

  private PathwayJson() {}

  private static ObjectMapper createMapper() {
    SimpleModule time = new SimpleModule("loci-pathway-time");
    time.addSerializer(Instant.class, new InstantSerializer());
    time.addDeserializer(Instant.class, new InstantDeserializer());
    ObjectMapper mapper =
        new ObjectMapper()
            .registerModule(new Jdk8Module())
            .registerModule(time)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY));
    // a field is the JSON type its schema says: file_path 5 is refused, not stored as "5"
    List<Map.Entry<LogicalType, CoercionInputShape>> refused =
        List.of(
            Map.entry(LogicalType.Textual, CoercionInputShape.Integer),
            Map.entry(LogicalType.Textual, CoercionInputShape.Float),
            Map.entry(LogicalType.Textual, CoercionInputShape.Boolean),
            Map.entry(LogicalType.Integer, CoercionInputShape.String),
            Map.entry(LogicalType.Float, CoercionInputShape.String),
            Map.entry(LogicalType.Boolean, CoercionInputShape.String),
            Map.entry(LogicalType.Boolean, CoercionInputShape.Integer));
    refused.forEach(
        r -> mapper.coercionConfigFor(r.getKey()).setCoercion(r.getValue(), CoercionAction.Fail));
    return mapper;
  }

  /**
   * Reads {@code json} as a {@code type}.
   *
   * @throws InvalidRequestException naming the offending field (dotted, without array indices, for
   *     example {@code semantic_flags} or {@code ladder_attempts.model}), or {@code trace} when the
   *     text is not JSON at all
   */
  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonMappingException e) {
      throw translate(e);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "trace", "expected valid JSON, found an error: " + dev.loci.internal.Json.errorText(e));
    }
  }

  /**
   * Reads a {@code pathway_vec} query: a JSON array of numbers, of any length (the query checks
   * that there are 32, and that they are finite).
   *
   * @throws InvalidRequestException naming {@code pathway_vec} if the text is not an array of
   *     numbers
   */
  public static float[] readVector(String json) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "pathway_vec",
          "expected a JSON array of 32 numbers, found an error: "
              + dev.loci.internal.Json.errorText(e));
    }
    if (node == null || !node.isArray()) {
      throw new InvalidRequestException("pathway_vec", "expected a JSON array of 32 numbers");
    }
    float[] v = new float[node.size()];
    for (int i = 0; i < v.length; i++) {
      if (!node.get(i).isNumber()) {
        throw new InvalidRequestException(
            "pathway_vec", "expected numbers, found " + node.get(i) + " at index " + i);
      }
      v[i] = node.get(i).floatValue();
    }
    return v;
  }

  /** Writes {@code value} as compact JSON. */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The error a failed read of a pathway type becomes: the {@link InvalidRequestException} inside
   * it if any, else one naming the offending field.
   */
  public static InvalidRequestException translate(Exception failure) {
    if (failure instanceof JsonMappingException e) {
      return translate(e);
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof InvalidRequestException invalid) {
        return invalid;
      }
    }
    return new InvalidRequestException("trace", String.valueOf(failure.getMessage()));
  }

  private static InvalidRequestException translate(JsonMappingException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidRequestException invalid) {
        return invalid;
      }
    }
    String field =
        e.getPath().stream()
            .map(JsonMappingException.Reference::getFieldName)
            .filter(name -> name != null)
            .collect(Collectors.joining("."));
    String location = e.getPath().isEmpty() ? "" : " (at " + pathOf(e) + ")";
    String detail =
        e instanceof MismatchedInputException mie ? mismatch(mie) : e.getOriginalMessage();
    if (detail == null || detail.contains("`") || detail.contains("java.")) {
      detail = "expected a value of the shape the API documents here"; // never a Java type
    }
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof NullPointerException npe
          && npe.getMessage() != null
          && WIRE_NAME.matcher(npe.getMessage()).matches()) {
        // nested records report a missing value by its JSON name: name the nested field
        field = field.isEmpty() ? npe.getMessage() : field + "." + npe.getMessage();
        detail = "expected a value, found none";
        break;
      }
      if (t instanceof IllegalArgumentException) {
        detail = t.getMessage();
        break;
      }
    }
    InvalidRequestException out =
        new InvalidRequestException(field.isEmpty() ? "trace" : field, detail + location);
    out.initCause(e);
    return out;
  }

  /**
   * What a value of the wrong type was and what the field expects, in JSON terms: never the Java
   * type Jackson names (such as {@code java.util.ArrayList<dev.loci.pathway.LadderAttempt>}).
   */
  private static String mismatch(MismatchedInputException e) {
    String found = "another value";
    if (e instanceof InvalidFormatException ife) {
      found = "'" + shorten(String.valueOf(ife.getValue())) + "'";
    } else {
      Matcher m = JACKSON_TOKEN.matcher(String.valueOf(e.getOriginalMessage()));
      if (m.find()) {
        found = describe(JsonToken.valueOf(m.group(1)));
      } else if (e.getProcessor() instanceof JsonParser p && p.currentToken() != null) {
        found = describe(p.currentToken());
      }
    }
    return "expected " + expected(e.getTargetType()) + ", found " + found;
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "another JSON type";
    }
    if (type == String.class || type == Instant.class) {
      return type == Instant.class ? "an RFC 3339 timestamp string" : "a string";
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "an integer";
    }
    if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    if (type.isEnum()) {
      return "one of its names as a string";
    }
    if (java.util.Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
      return "an object";
    }
    return "another JSON type";
  }

  private static String describe(JsonToken t) {
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT -> "an integer";
      case VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "true or false";
      case VALUE_NULL -> "null";
      default -> "another value";
    };
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  private static String pathOf(JsonMappingException e) {
    StringBuilder sb = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (sb.length() > 0) {
          sb.append('.');
        }
        sb.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        sb.append('[').append(ref.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  private static final class InstantSerializer extends JsonSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeString(value.toString());
    }
  }

  private static final class InstantDeserializer extends JsonDeserializer<Instant> {
    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (Instant)
            ctxt.handleUnexpectedToken(
                Instant.class, p.currentToken(), p, "expected an RFC 3339 timestamp string");
      }
      String text = p.getText();
      try {
        return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "expected an RFC 3339 timestamp such as 2026-05-03T08:07:38Z, found \"" + text + "\"",
            e);
      }
    }
  }
}
