package dev.loci.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What a tool answers: the text a model reads, and the same result as structured JSON.
 *
 * @param text the text content
 * @param structured the structured content, a JSON object
 */
public record Reply(String text, JsonNode structured) {
  /** Checks presence. */
  public Reply {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(structured, "structured");
    if (!structured.isObject()) {
      throw new IllegalArgumentException("structured content must be a JSON object");
    }
  }

  /** A reply whose text is the structured content as compact JSON. */
  public static Reply json(JsonNode structured) {
    return new Reply(McpJson.compact(structured), structured);
  }
}
