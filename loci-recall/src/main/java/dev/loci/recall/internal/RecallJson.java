package dev.loci.recall.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.loci.InvalidRequestException;
import dev.loci.recall.RecallMode;
import java.io.UncheckedIOException;
import java.util.stream.Collectors;

/**
 * The Jackson configuration of recall's records: snake_case names, {@code Optional} fields left out
 * when empty, modes by their wire names. Thread-safe.
 */
public final class RecallJson {
  /** The shared mapper. */
  public static final ObjectMapper MAPPER = createMapper();

  private RecallJson() {}

  private static ObjectMapper createMapper() {
    SimpleModule module = new SimpleModule("loci-recall");
    module.addSerializer(
        RecallMode.class,
        new com.fasterxml.jackson.databind.JsonSerializer<RecallMode>() {
          @Override
          public void serialize(
              RecallMode value,
              com.fasterxml.jackson.core.JsonGenerator gen,
              com.fasterxml.jackson.databind.SerializerProvider serializers)
              throws java.io.IOException {
            gen.writeString(value.wireName());
          }
        });
    module.addDeserializer(RecallMode.class, new FromText<>(RecallMode.class, RecallMode::parse));
    module.addDeserializer(
        java.time.Instant.class, new FromText<>(java.time.Instant.class, new LastInstant()));
    module.addDeserializer(
        dev.loci.Namespace.class, new FromText<>(dev.loci.Namespace.class, dev.loci.Namespace::of));
    module.addSerializer(java.time.Instant.class, ToStringSerializer.instance);
    module.addSerializer(dev.loci.Namespace.class, ToStringSerializer.instance);
    return new ObjectMapper()
        .registerModule(new Jdk8Module())
        .registerModule(module)
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .setSerializationInclusion(JsonInclude.Include.NON_ABSENT)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        // correctly rounded like Double.parseDouble, several times faster (replay, restore)
        .enable(
            com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER.mappedFeature());
  }

  /**
   * {@link java.time.Instant#parse}, remembering the last text: the records of one batch share its
   * timestamp, and a snapshot or a replay of a large graph reads millions of them in a row, where
   * parsing each costs more than the rest of the record. Thread-safe (one immutable pair, replaced
   * whole).
   */
  private static final class LastInstant
      implements java.util.function.Function<String, java.time.Instant> {
    private record Parsed(String text, java.time.Instant instant) {}

    private volatile Parsed last = new Parsed("", java.time.Instant.EPOCH);

    @Override
    public java.time.Instant apply(String text) {
      Parsed p = last;
      if (p.text().equals(text)) {
        return p.instant();
      }
      java.time.Instant parsed = java.time.Instant.parse(text);
      last = new Parsed(text, parsed);
      return parsed;
    }
  }

  /** Reads a value from its JSON string with {@code parse}, the reverse of its string form. */
  private static final class FromText<T>
      extends com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer<T> {
    private static final long serialVersionUID = 1L;
    private final transient java.util.function.Function<String, T> parse;

    FromText(Class<T> type, java.util.function.Function<String, T> parse) {
      super(type);
      this.parse = parse;
    }

    @Override
    public T deserialize(
        com.fasterxml.jackson.core.JsonParser p,
        com.fasterxml.jackson.databind.DeserializationContext ctx)
        throws java.io.IOException {
      if (!p.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_STRING)) {
        return ctx.reportInputMismatch(
            this, "expected a string for %s", handledType().getSimpleName());
      }
      return parse.apply(p.getText());
    }
  }

  /** Writes {@code value} as compact JSON. */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The JSON tree of {@code value}. */
  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * Reads a tree as a {@code type}.
   *
   * @throws InvalidRequestException naming the offending field, or {@code what} when the error has
   *     no field
   */
  public static <T> T read(JsonNode node, Class<T> type, String what) {
    try {
      return MAPPER.treeToValue(node, type);
    } catch (JsonMappingException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof InvalidRequestException invalid) {
          throw invalid;
        }
      }
      String field =
          e.getPath().stream()
              .map(JsonMappingException.Reference::getFieldName)
              .filter(name -> name != null)
              .collect(Collectors.joining("."));
      InvalidRequestException out =
          new InvalidRequestException(field.isEmpty() ? what : field, e.getOriginalMessage());
      out.initCause(e);
      throw out;
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(what, e.getOriginalMessage());
    }
  }
}
