package dev.loci.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.loci.Namespace;
import dev.loci.Trace;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a trace snapshot record ({@link TraceLayer#appendJson}), and the public form a client
 * receives, with a streaming parser: opening from a snapshot reads a million of them, and building
 * a tree for each costs more than the rest of the restore.
 */
public final class TraceRecords {
  private static final JsonFactory FACTORY = Json.MAPPER.getFactory();

  private TraceRecords() {}

  /**
   * Parses one record.
   *
   * @param namespaces parsed namespaces, reused across the records of one restore
   * @throws IllegalArgumentException if the record is not a complete trace
   */
  static Trace parse(String json, Map<String, Namespace> namespaces) {
    return parse(json, namespaces, Optional.empty(), false);
  }

  /**
   * Parses the data of a {@code trace.added} or {@code trace.revised} event, which has no {@code
   * ns} field: the trace is in the batch's namespace.
   *
   * @throws IllegalArgumentException if the data is not a complete trace
   */
  static Trace parseEvent(String json, Namespace namespace) {
    return parse(json, Map.of(), Optional.of(namespace), false);
  }

  /**
   * Parses the public form of a trace ({@link Trace#toJson()}), where {@code content} is the JSON
   * value itself: its text is taken verbatim, so the trace read has the same {@link
   * Trace#version()} as the one written.
   *
   * @throws IllegalArgumentException if the text is not a complete trace
   */
  public static Trace parsePublic(String json) {
    return parse(json, new java.util.HashMap<>(), Optional.empty(), true);
  }

  /**
   * Parses either encoding: the record's ({@code ns}, content as a string) or the public one
   * ({@code namespace}, content as the JSON value, taken verbatim when {@code publicForm}).
   */
  private static Trace parse(
      String json,
      Map<String, Namespace> namespaces,
      Optional<Namespace> given,
      boolean publicForm) {
    String uid = null;
    String content = null;
    String predecessor = null;
    Instant created = null;
    Instant updated = null;
    boolean retired = false;
    int replayCount = 1;
    List<String> tags = new ArrayList<>();
    String ns = null;
    try (JsonParser p = FACTORY.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("trace record is not an object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "uid" -> uid = p.getText();
          case "content" -> {
            if (publicForm) {
              int start = (int) p.currentTokenLocation().getCharOffset();
              p.skipChildren();
              p.finishToken(); // a string's end is only known once its text is read
              content = json.substring(start, (int) p.currentLocation().getCharOffset());
            } else {
              content = p.getText();
            }
          }
          case "predecessor_uid" -> predecessor = v == JsonToken.VALUE_NULL ? null : p.getText();
          case "created_at" -> created = Timestamps.parse(p.getText());
          case "updated_at" -> updated = Timestamps.parse(p.getText());
          case "retired" -> retired = v == JsonToken.VALUE_TRUE;
          case "replay_count" -> replayCount = p.getIntValue();
          case "ns", "namespace" -> ns = p.getText();
          case "tags" -> {
            while (p.nextToken() == JsonToken.VALUE_STRING) {
              tags.add(p.getText());
            }
          }
          default -> p.skipChildren();
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable trace record: " + e.getMessage(), e);
    }
    if (uid == null
        || content == null
        || created == null
        || updated == null
        || (ns == null && given.isEmpty())) {
      throw new IllegalArgumentException(
          "trace record lacks uid, content, times or ns (namespace): " + json);
    }
    Namespace namespace = given.orElse(null);
    if (namespace == null) {
      namespace = namespaces.get(ns);
      if (namespace == null) {
        namespace = Namespace.of(ns);
        namespaces.put(ns, namespace);
      }
    }
    return new Trace(
        uid,
        namespace,
        content,
        Optional.ofNullable(predecessor),
        created,
        updated,
        retired,
        replayCount,
        tags);
  }
}
