package dev.loci.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;
import java.util.Optional;

/**
 * One change inside a journal batch: a type such as {@code trace.added}, whose first label names
 * the {@link Layer} that applies it, and its JSON data.
 *
 * <p>An event holds its data as JSON text, as a tree, or both; each form is derived from the other
 * on first use. Events made on the write path may also carry the layer's own decoded value of the
 * data ({@link #decoded()}), so that applying them need not parse what the layer just built; events
 * read back from the journal never do. The tree, once created, must not be mutated by anyone.
 *
 * <p>Immutable in effect and thread-safe.
 */
public final class Event {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String type;
  private final String layer;
  private volatile String json;
  private volatile JsonNode tree;
  private final Object decoded;

  /**
   * An event whose data is a tree.
   *
   * @param type {@code <layer>.<verb>}, lower case
   * @param data the event's fields; owned by the event from now on
   */
  public Event(String type, JsonNode data) {
    this.type = type;
    this.layer = layerOf(type);
    this.tree = Objects.requireNonNull(data, "data");
    this.json = null;
    this.decoded = null;
  }

  private Event(String type, String json, Object decoded) {
    this.type = type;
    this.layer = layerOf(type);
    this.json = Objects.requireNonNull(json, "json");
    this.decoded = decoded;
  }

  /**
   * An event whose data is JSON text, as read back from the journal. The text must be one valid
   * JSON value; it is parsed only when {@link #data()} is first called.
   */
  public static Event ofJson(String type, String json) {
    return new Event(type, json, null);
  }

  /**
   * An event whose data is JSON text the layer built itself, with the layer's decoded value of it.
   * The text must be one valid JSON value; it is written to the journal as it is.
   */
  public static Event ofJson(String type, String json, Object decoded) {
    return new Event(type, json, Objects.requireNonNull(decoded, "decoded"));
  }

  /** A checked type and its layer name. */
  private record Checked(String type, String layer) {}

  // the last type checked, shared by every thread: immutable, so a race only misses
  private static volatile Checked lastType = new Checked(".", "");

  /**
   * The layer name of {@code type}, its text up to the first dot, after checking the type. Nearly
   * every event repeats the last one's type: then the check is done and the same layer string is
   * returned, so the layer maps find an identical key with its hash already computed.
   *
   * @throws IllegalArgumentException if the type is not {@code layer.verb} in lower case
   */
  private static String layerOf(String type) {
    Checked last = lastType;
    if (last.type().equals(Objects.requireNonNull(type, "type"))) {
      return last.layer();
    }
    if (!isType(type)) {
      throw new IllegalArgumentException(
          "event type must look like 'layer.verb' in lower case, found '" + type + "'");
    }
    String layer = type.substring(0, type.indexOf('.'));
    if (layer.equals(last.layer())) {
      layer = last.layer();
    }
    lastType = new Checked(type, layer);
    return layer;
  }

  /**
   * Whether {@code type} matches {@code [a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+}; by hand, since every
   * event made or read checks it.
   */
  private static boolean isType(String type) {
    int labels = 0;
    boolean labelStart = true;
    for (int i = 0; i < type.length(); i++) {
      char c = type.charAt(i);
      if (labelStart) {
        if (c < 'a' || c > 'z') {
          return false;
        }
        labelStart = false;
        labels++;
      } else if (c == '.') {
        labelStart = true;
      } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return !labelStart && labels >= 2;
  }

  /** The type, {@code <layer>.<verb>}. */
  public String type() {
    return type;
  }

  /** The name of the layer that applies this event: the type up to its first dot. */
  public String layer() {
    return layer;
  }

  /** The data as a tree; do not mutate it. */
  public JsonNode data() {
    JsonNode t = tree;
    if (t == null) {
      try {
        t = MAPPER.readTree(json);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("event data is not JSON: " + e.getOriginalMessage(), e);
      }
      tree = t;
    }
    return t;
  }

  /** The data as compact JSON text. */
  public String json() {
    String j = json;
    if (j == null) {
      j = tree.toString();
      json = j;
    }
    return j;
  }

  /** The layer's decoded value of the data, present only on events the layer just made. */
  public Optional<Object> decoded() {
    return Optional.ofNullable(decoded);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Event e && type.equals(e.type) && json().equals(e.json());
  }

  @Override
  public int hashCode() {
    return type.hashCode() * 31 + json().hashCode();
  }

  @Override
  public String toString() {
    return "Event[" + type + " " + json() + "]";
  }
}
