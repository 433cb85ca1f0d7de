package dev.loci.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.spi.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a trace snapshot record ({@link #appendJson}), and the public form a client receives, with
 * a streaming parser: opening from a snapshot reads a million of them, and building a tree for each
 * costs more than the rest of the restore.
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
    Trace fast = TraceRecordReader.read(json, null, namespaces, null);
    return fast != null ? fast : parse(json, namespaces, Optional.empty(), false);
  }

  /**
   * Parses the data of a {@code trace.added} or {@code trace.revised} event, which has no {@code
   * ns} field: the trace is in the batch's namespace.
   *
   * @param at the batch's time, which a new trace's times usually equal: then they share it
   * @throws IllegalArgumentException if the data is not a complete trace
   */
  static Trace parseEvent(String json, Namespace namespace, Instant at) {
    Trace fast = TraceRecordReader.read(json, namespace, Map.of(), at);
    return fast != null ? fast : parse(json, Map.of(), Optional.of(namespace), false);
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
   * ({@code namespace}, content as the JSON value, taken verbatim when {@code publicForm}), with
   * Jackson: the path of whatever {@link TraceRecordReader} does not read.
   */
  static Trace parse(
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
      namespace = JournalLines.namespace(namespaces, ns);
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

  static Event event(String type, Trace t) {
    return Event.ofJson(type, appendJson(new StringBuilder(256), t, false).toString(), t);
  }

  /**
   * The event of a trace made from {@code draft}, whose content and tags the caller's thread has
   * already encoded ({@link TraceLayer.Draft}): deciding it costs a few bulk copies.
   */
  static Event event(String type, Trace t, TraceLayer.Draft draft) {
    if (t.retired()
        || t.replayCount() != 1
        || !t.createdAt().equals(t.updatedAt())
        || !plain(t.uid())
        || t.predecessorUid().isPresent() && !plain(t.predecessorUid().get())) {
      int length = draft.contentField.length() + draft.tagsJson.length() + 192;
      StringBuilder sb = new StringBuilder(length);
      return Event.ofJson(
          type, appendJson(sb, t, false, draft.contentField, draft.tagsJson).toString(), t);
    }
    // a new trace (nearly every write): the text appendJson makes, concatenated in one allocation
    // from the parts the caller's thread encoded
    String at = Timestamps.format(t.createdAt());
    String predecessor =
        t.predecessorUid().isEmpty()
            ? ""
            : ",\"predecessor_uid\":\"" + t.predecessorUid().get() + '"';
    return Event.ofJson(
        type,
        "{\"uid\":\""
            + t.uid()
            + '"'
            + draft.contentField
            + predecessor
            + ",\"created_at\":\""
            + at
            + "\",\"updated_at\":\""
            + at
            + draft.freshTail,
        t);
  }

  /** The {@code ,"content":"..."} part of a trace's event: the content quoted as a JSON string. */
  static String contentField(String content) {
    StringBuilder sb = new StringBuilder(content.length() + 30 + (content.length() >> 3));
    return Json.appendQuoted(sb.append(",\"content\":"), content).toString();
  }

  /** The part of a new trace's event after its {@code updated_at} value, from its tags' JSON. */
  static String freshTail(String tagsJson) {
    return "\",\"retired\":false,\"replay_count\":1,\"tags\":" + tagsJson + '}';
  }

  /**
   * Whether {@code uid} needs no JSON escaping: the characters {@link TraceLayer#checkUid} allows.
   */
  private static boolean plain(String uid) {
    for (int i = 0; i < uid.length(); i++) {
      char c = uid.charAt(i);
      if (c >= PLAIN.length || !PLAIN[c]) {
        return false;
      }
    }
    return true;
  }

  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (char c :
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:".toCharArray()) {
      PLAIN[c] = true;
    }
  }

  static Event uidEvent(String type, Trace result) {
    StringBuilder data = new StringBuilder(48).append("{\"uid\":");
    return Event.ofJson(type, Json.appendQuoted(data, result.uid()).append('}').toString(), result);
  }

  /**
   * A trace in the event and snapshot encoding: {@code uid}, {@code content} (the compact JSON as a
   * string), {@code predecessor_uid} if any, {@code created_at}, {@code updated_at}, {@code
   * retired}, {@code replay_count}, {@code tags}, and {@code ns} in snapshots.
   */
  static StringBuilder appendJson(StringBuilder sb, Trace t, boolean withNamespace) {
    return appendJson(sb, t, withNamespace, null, null);
  }

  /**
   * {@link #appendJson(StringBuilder, Trace, boolean)} with the content and the tags already
   * encoded, if not null: {@code contentField} the content's field ({@link #contentField}), {@code
   * tagsJson} the tags as a JSON array.
   */
  private static StringBuilder appendJson(
      StringBuilder sb, Trace t, boolean withNamespace, String contentField, String tagsJson) {
    sb.append("{\"uid\":");
    Json.appendQuoted(sb, t.uid());
    if (contentField != null) {
      sb.append(contentField);
    } else {
      Json.appendQuoted(sb.append(",\"content\":"), t.content());
    }
    if (t.predecessorUid().isPresent()) {
      Json.appendQuoted(sb.append(",\"predecessor_uid\":"), t.predecessorUid().get());
    }
    if (withNamespace) { // a snapshot record: a million distinct times, so none is kept
      Timestamps.append(sb.append(",\"created_at\":\""), t.createdAt());
      Timestamps.append(sb.append("\",\"updated_at\":\""), t.updatedAt());
    } else { // an event: its line formats the same time again
      sb.append(",\"created_at\":\"").append(Timestamps.format(t.createdAt()));
      sb.append("\",\"updated_at\":\"").append(Timestamps.format(t.updatedAt()));
    }
    sb.append("\",\"retired\":").append(t.retired());
    sb.append(",\"replay_count\":").append(t.replayCount()).append(",\"tags\":");
    if (tagsJson != null) {
      sb.append(tagsJson);
    } else {
      appendTags(sb, t.tags());
    }
    if (withNamespace) {
      sb.append(",\"ns\":\"").append(t.namespace().value()).append('"');
    }
    return sb.append('}');
  }

  /** Appends {@code tags} as a JSON array of strings. */
  static StringBuilder appendTags(StringBuilder sb, List<String> tags) {
    sb.append('[');
    for (int i = 0; i < tags.size(); i++) {
      Json.appendQuoted(i == 0 ? sb : sb.append(','), tags.get(i));
    }
    return sb.append(']');
  }

  static String text(JsonNode d, String field) {
    JsonNode n = d.get(field);
    if (n == null || !n.isTextual()) {
      throw new IllegalStateException("event field '" + field + "' is missing or not a string");
    }
    return n.asText();
  }

  /** The opaque cursor of a search page that ends at {@code t}. */
  static String encodeCursor(Trace t) {
    String raw =
        "v1\n" + Timestamps.format(t.createdAt()) + "\n" + t.namespace().value() + "\n" + t.uid();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The position a cursor from {@link #encodeCursor} stands for, as a trace with its sort keys.
   *
   * @throws InvalidRequestException naming {@code cursor}
   */
  static Trace decodeCursor(String cursor) {
    try {
      String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      String[] parts = raw.split("\n", -1);
      if (parts.length == 4 && parts[0].equals("v1")) {
        Instant at = Timestamps.parse(parts[1]);
        return new Trace(
            parts[3],
            Namespace.of(parts[2]),
            "null",
            Optional.empty(),
            at,
            at,
            false,
            1,
            List.of());
      }
    } catch (IllegalArgumentException | DateTimeParseException | InvalidRequestException e) {
      // reported below
    }
    throw new InvalidRequestException(
        "cursor", "expected a cursor returned by an earlier search, found '" + cursor + "'");
  }
}
