package dev.loci.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One change inside a journal batch: a type such as {@code trace.added}, whose first label names
 * the {@link Layer} that applies it, and its JSON data.
 *
 * <p>The data tree is owned by the event once created: neither the creator nor any reader may
 * mutate it. Layers build fresh trees for every event.
 *
 * @param type {@code <layer>.<verb>}, lower case
 * @param data the event's fields
 */
public record Event(String type, JsonNode data) {
  private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+");

  /** Checks the type follows {@code <layer>.<verb>}. */
  public Event {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
    if (!TYPE.matcher(type).matches()) {
      throw new IllegalArgumentException(
          "event type must look like 'layer.verb' in lower case, found '" + type + "'");
    }
  }

  /** The name of the layer that applies this event: the type up to its first dot. */
  public String layer() {
    return type.substring(0, type.indexOf('.'));
  }
}
