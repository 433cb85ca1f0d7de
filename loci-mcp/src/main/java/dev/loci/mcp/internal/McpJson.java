package dev.loci.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.UncheckedIOException;

/**
 * The JSON of the MCP server: one Jackson 2 mapper for the protocol and the results, compact text,
 * and the pretty form of JavaScript's {@code JSON.stringify(value, null, 2)} that the reference
 * memory server's results are written in.
 */
public final class McpJson {
  /** The mapper; thread-safe once configured. */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** The protocol's mapper over {@link #MAPPER}. */
  public static final McpJsonMapper PROTOCOL = new JacksonMcpJsonMapper(MAPPER);

  private static final ObjectWriter JS_PRETTY =
      MAPPER.writer(
          new DefaultPrettyPrinter()
              .withObjectIndenter(new DefaultIndenter("  ", "\n"))
              .withArrayIndenter(new DefaultIndenter("  ", "\n"))
              .withSeparators(
                  Separators.createDefaultInstance()
                      .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                      .withObjectEmptySeparator("")
                      .withArrayEmptySeparator("")));

  private McpJson() {}

  /** A new empty JSON object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** {@code node} as compact JSON. */
  public static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code node} as {@code JSON.stringify(node, null, 2)} writes it. */
  public static String pretty(JsonNode node) {
    try {
      return JS_PRETTY.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses JSON text that Loci itself wrote. */
  public static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
