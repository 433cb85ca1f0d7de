package dev.loci.mcp.internal;

import dev.loci.Namespace;
import dev.loci.mcp.McpCaller;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * Streamable HTTP without sessions, on one route of the Loci server: each POST to {@code /mcp}
 * carries one JSON-RPC request (answered with its response as {@code application/json}) or one
 * notification (answered 202). The server's pipeline has already checked the credential, so the
 * caller put into the transport context is the credential's, and every tool call is bounded by its
 * role and namespaces. A browser page on another origin is refused (DNS rebinding). Thread-safe.
 */
public final class HttpTransport implements McpStatelessServerTransport {
  /** The transport-context key of the {@link McpCaller}. */
  public static final String CALLER = "loci.caller";

  /** The transport-context key of the default {@link Namespace}. */
  public static final String NAMESPACE = "loci.namespace";

  private volatile McpStatelessServerHandler handler;

  @Override
  public void setMcpHandler(McpStatelessServerHandler mcpHandler) {
    this.handler = mcpHandler;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }

  /**
   * Serves one POST of {@code /mcp}; {@code defaultNs} is the namespace of calls that name none.
   */
  public void handle(Exchange ex, Namespace defaultNs) {
    checkOrigin(ex.header("Origin"));
    String body;
    try (InputStream in = ex.bodyStream()) {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(McpJson.PROTOCOL, body);
    } catch (IOException | IllegalArgumentException e) {
      ex.json(
          400,
          rpcError(
              McpSchema.ErrorCodes.PARSE_ERROR, "body: not a JSON-RPC message: " + e.getMessage()));
      return;
    }
    McpTransportContext context =
        McpTransportContext.create(Map.of(CALLER, McpCaller.of(ex), NAMESPACE, defaultNs));
    if (message instanceof McpSchema.JSONRPCRequest request) {
      McpSchema.JSONRPCResponse response =
          handler
              .handleRequest(context, request)
              .contextWrite(c -> c.put(McpTransportContext.KEY, context))
              .block();
      try {
        ex.json(200, McpJson.PROTOCOL.writeValueAsString(response));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else if (message instanceof McpSchema.JSONRPCNotification notification) {
      handler
          .handleNotification(context, notification)
          .contextWrite(c -> c.put(McpTransportContext.KEY, context))
          .block();
      ex.respond(202, "application/json", "");
    } else {
      ex.json(
          400,
          rpcError(
              McpSchema.ErrorCodes.INVALID_REQUEST,
              "body: the server accepts one request or notification per POST"));
    }
  }

  private static String rpcError(int code, String message) {
    return McpJson.compact(
        McpJson.object()
            .put("jsonrpc", McpSchema.JSONRPC_VERSION)
            .putNull("id")
            .set("error", McpJson.object().put("code", code).put("message", message)));
  }

  /**
   * Refuses a request a browser sent from a page of another host than loopback: without the check a
   * page could reach a server on 127.0.0.1 that has no credential configured.
   */
  private static void checkOrigin(Optional<String> origin) {
    if (origin.isEmpty() || origin.get().equals("null")) {
      return;
    }
    String host;
    try {
      host = Optional.ofNullable(URI.create(origin.get()).getHost()).orElse("");
    } catch (IllegalArgumentException e) {
      host = "";
    }
    if (!(host.equals("localhost")
        || host.equals("127.0.0.1")
        || host.equals("[::1]")
        || host.equals("::1"))) {
      throw new HttpProblem(
          403,
          "origin-not-allowed",
          "Origin not allowed",
          "Origin: "
              + origin.get()
              + " is not a loopback origin; MCP over HTTP serves clients, not"
              + " web pages of other sites",
          Optional.of("Origin"));
    }
  }
}
