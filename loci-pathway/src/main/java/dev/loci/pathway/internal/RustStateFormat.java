package dev.loci.pathway.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.pathway.PathwayTrace;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The Rust implementation's {@code data/_pathway_memory/state.json} (spec section 7): {@code
 * {"pathways": {"<pathway_id>": [trace, ...]}, "last_updated_at": "..."}}.
 *
 * <p>Reading streams the file and validates every trace before anything is stored. A trace without
 * a {@code pathway_id} takes its bucket's key. A legacy trace without a {@code trace_uid} gets one
 * and the {@code legacy} marker; the id is a UUID v7 whose time is the trace's {@code created_at}
 * and whose other bits come from a SHA-256 of the bucket, the position and the trace, so importing
 * the same file twice assigns the same ids and the second import skips them.
 */
public final class RustStateFormat {
  /** Reads one trace at a time from a stream, so trailing tokens are the norm, not an error. */
  private static final JsonFactory FACTORY =
      PathwayJson.MAPPER
          .copy()
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .getFactory();

  /** Pretty-printing as serde_json's {@code to_string_pretty}: two spaces, {@code "key": value}. */
  private static final DefaultPrettyPrinter SERDE_PRETTY =
      new DefaultPrettyPrinter()
          .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
          .withObjectIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
          .withSeparators(
              Separators.createDefaultInstance()
                  .withObjectFieldValueSpacing(Separators.Spacing.AFTER));

  private RustStateFormat() {}

  /**
   * What a file holds.
   *
   * @param traces every trace, bucket by bucket, in file order
   * @param legacyAssigned how many traces were given a {@code trace_uid}
   * @param lastUpdatedAt the file's {@code last_updated_at}, if any
   */
  public record Contents(
      List<PathwayTrace> traces, int legacyAssigned, Optional<Instant> lastUpdatedAt) {}

  /**
   * Reads a whole file.
   *
   * @throws InvalidRequestException naming the field, with the bucket and position (for example
   *     {@code pathways.<id>[3].task_class}), or {@code state} if the shape is wrong
   */
  public static Contents read(InputStream in) throws IOException {
    List<PathwayTrace> traces = new ArrayList<>();
    int legacy = 0;
    Optional<Instant> lastUpdated = Optional.empty();
    boolean sawPathways = false;
    try (JsonParser p = FACTORY.createParser(in)) {
      expect(p.nextToken(), JsonToken.START_OBJECT, "state", "a JSON object");
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (field.equals("pathways")) {
          sawPathways = true;
          expect(value, JsonToken.START_OBJECT, "pathways", "an object of pathway_id to traces");
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String bucket = p.currentName();
            expect(p.nextToken(), JsonToken.START_ARRAY, "pathways." + bucket, "an array");
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
              String where = "pathways." + bucket + "[" + i + "]";
              JsonNode node = p.readValueAsTree();
              PathwayTrace t = readTrace(node, bucket, where);
              if (t.traceUid().isEmpty()) {
                t = t.toBuilder().traceUid(legacyUid(bucket, i, t)).legacy(true).build();
                legacy++;
              }
              traces.add(t);
              i++;
            }
          }
        } else if (field.equals("last_updated_at") && value == JsonToken.VALUE_STRING) {
          try {
            lastUpdated = Optional.of(OffsetDateTime.parse(p.getText()).toInstant());
          } catch (DateTimeParseException e) {
            throw new InvalidRequestException(
                "last_updated_at", "expected an RFC 3339 timestamp, found \"" + p.getText() + "\"");
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new InvalidRequestException(
          "state", "expected valid JSON, found an error: " + dev.loci.internal.Json.errorText(e));
    } catch (CharConversionException e) {
      // the parser guesses the encoding from the first bytes; a guess of UTF-16/32 that the rest
      // of the file contradicts is bad input, not a failure to read
      throw new InvalidRequestException(
          "state", "expected UTF-8 JSON, found undecodable text: " + e.getMessage());
    }
    if (!sawPathways) {
      throw new InvalidRequestException("pathways", "expected a \"pathways\" object, found none");
    }
    return new Contents(traces, legacy, lastUpdated);
  }

  private static PathwayTrace readTrace(JsonNode node, String bucket, String where) {
    if (!node.isObject()) {
      throw new InvalidRequestException(where, "expected a trace object");
    }
    com.fasterxml.jackson.databind.node.ObjectNode obj =
        (com.fasterxml.jackson.databind.node.ObjectNode) node;
    JsonNode id = obj.get("pathway_id");
    if (id == null || id.isNull()) {
      obj.put("pathway_id", bucket);
    }
    PathwayTrace t;
    try {
      t = PathwayJson.MAPPER.treeToValue(obj, PathwayTrace.class);
    } catch (InvalidRequestException e) {
      throw new InvalidRequestException(where + "." + e.field(), strip(e));
    } catch (IOException | IllegalArgumentException e) {
      InvalidRequestException invalid = PathwayJson.translate(e);
      throw new InvalidRequestException(where + "." + invalid.field(), strip(invalid));
    }
    if (!t.pathwayId().equals(bucket)) {
      throw new InvalidRequestException(
          where + ".pathway_id", "expected the bucket's id " + bucket + ", found " + t.pathwayId());
    }
    return t;
  }

  private static String strip(InvalidRequestException e) {
    String m = e.getMessage();
    String prefix = e.field() + ": ";
    return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
  }

  private static void expect(JsonToken found, JsonToken wanted, String field, String what) {
    if (found != wanted) {
      throw new InvalidRequestException(field, "expected " + what + ", found " + found);
    }
  }

  static String legacyUid(String bucket, int index, PathwayTrace t) {
    byte[] h;
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update((bucket + "|" + index + "|").getBytes(StandardCharsets.UTF_8));
      h = sha.digest(t.toJson().getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
    long rand = 0;
    for (int i = 0; i < 8; i++) {
      rand = rand << 8 | (h[i] & 0xFF);
    }
    long millis = Math.max(0, t.createdAt().toEpochMilli());
    long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | ((h[8] & 0x0F) << 8 | h[9] & 0xFF);
    long lsb = rand & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb).toString();
  }

  /** Writes {@code pathways} (bucket order and trace order kept) and {@code last_updated_at}. */
  public static void write(
      Map<String, List<PathwayTrace>> pathways, Instant lastUpdatedAt, Writer out) {
    try {
      JsonGenerator g = FACTORY.createGenerator(out);
      g.setPrettyPrinter(SERDE_PRETTY);
      g.writeStartObject();
      g.writeObjectFieldStart("pathways");
      for (Map.Entry<String, List<PathwayTrace>> e : pathways.entrySet()) {
        g.writeArrayFieldStart(e.getKey());
        for (PathwayTrace t : e.getValue()) {
          g.writeObject(t);
        }
        g.writeEndArray();
      }
      g.writeEndObject();
      g.writeStringField("last_updated_at", lastUpdatedAt.toString());
      g.writeEndObject();
      g.flush();
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
