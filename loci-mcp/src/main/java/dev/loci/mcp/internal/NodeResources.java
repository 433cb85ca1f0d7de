package dev.loci.mcp.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.Page;
import dev.loci.mcp.McpCaller;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallWire;
import dev.loci.recall.RecordVersion;
import dev.loci.server.Role;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The resources of a namespace's memory graph, for clients that browse: {@code
 * loci://ns/{ns}/nodes} (the first nodes, each with its URI) and {@code loci://ns/{ns}/nodes/{id}}
 * (one node's current version). Reading needs the reader role and a grant of the namespace, as over
 * HTTP. Thread-safe.
 */
public final class NodeResources {
  /** The template of one node. */
  public static final String NODE = "loci://ns/{ns}/nodes/{id}";

  /** The template of a namespace's nodes. */
  public static final String NODES = "loci://ns/{ns}/nodes";

  private static final String PREFIX = "loci://ns/";
  private static final int PAGE = 100;

  private final RecallMemory recall;

  /** Resources over {@code recall}. */
  public NodeResources(RecallMemory recall) {
    this.recall = recall;
  }

  /** The templates, as {@code resources/templates/list} shows them. */
  public static List<McpSchema.ResourceTemplate> templates() {
    return List.of(
        McpSchema.ResourceTemplate.builder(NODES, "nodes")
            .title("Memory-graph nodes of a namespace")
            .description("The first " + PAGE + " nodes of the namespace, with their URIs.")
            .mimeType("application/json")
            .build(),
        McpSchema.ResourceTemplate.builder(NODE, "node")
            .title("A memory-graph node")
            .description("The current version of one node: content, attributes, source.")
            .mimeType("application/json")
            .build());
  }

  /** The URI of node {@code id} of {@code ns}. */
  public static String uri(Namespace ns, String id) {
    return PREFIX
        + ns.value()
        + "/nodes/"
        + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Reads {@code uri} for {@code caller}.
   *
   * @throws McpError invalid params naming {@code uri} for a URI that is no node or namespace, a
   *     namespace the caller is not granted, or a node that does not exist
   */
  public McpSchema.ReadResourceResult read(McpCaller caller, String uri) {
    try {
      if (!uri.startsWith(PREFIX)) {
        throw new InvalidRequestException("uri", "expected " + NODE + ", found '" + uri + "'");
      }
      String rest = uri.substring(PREFIX.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        throw new InvalidRequestException("uri", "expected " + NODE + ", found '" + uri + "'");
      }
      Namespace ns = Namespace.of(rest.substring(0, slash));
      if (!caller.allows(Role.READER) || !caller.covers(NamespaceScope.exactly(ns))) {
        throw error("uri: the credential is not granted " + ns);
      }
      String tail = rest.substring(slash);
      String json;
      if (tail.equals("/nodes")) {
        json = McpJson.compact(list(ns));
      } else if (tail.startsWith("/nodes/") && tail.length() > "/nodes/".length()) {
        String id =
            URLDecoder.decode(
                tail.substring("/nodes/".length()).replace("+", "%2B"), StandardCharsets.UTF_8);
        RecordVersion<MemoryNode> v = recall.nodeVersion(ns, id);
        if (v.removed()) {
          throw new NotFoundException("uri", "node '" + id + "' was removed from " + ns);
        }
        json = RecallWire.writeNode(v);
      } else {
        throw new InvalidRequestException("uri", "expected " + NODE + ", found '" + uri + "'");
      }
      return new McpSchema.ReadResourceResult(
          List.of(new McpSchema.TextResourceContents(uri, "application/json", json)));
    } catch (InvalidRequestException | NotFoundException e) {
      throw error(e.getMessage());
    }
  }

  private ObjectNode list(Namespace ns) {
    Page<RecordVersion<MemoryNode>> page = recall.nodes(ns, PAGE, Optional.empty());
    ObjectNode out = McpJson.object().put("namespace", ns.value());
    ArrayNode items = out.putArray("nodes");
    for (RecordVersion<MemoryNode> v : page.items()) {
      items
          .addObject()
          .put("id", v.value().id())
          .put("type", v.value().type())
          .put("uri", uri(ns, v.value().id()))
          .put("version", v.version());
    }
    out.put("more", page.nextCursor().isPresent());
    return out;
  }

  private static McpError error(String message) {
    return McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(message).build();
  }
}
