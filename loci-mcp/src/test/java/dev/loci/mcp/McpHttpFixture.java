package dev.loci.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.RequestLimits;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real Loci server on 127.0.0.1 and a port of its own, with {@code /mcp}, and real MCP SDK
 * clients over streamable HTTP. Tokens are their own ids: {@code <role>-<scope>}.
 */
final class McpHttpFixture implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();

  final LociServer server;
  private final List<McpSyncClient> clients = new ArrayList<>();

  /** A server with {@code credentials} (none: the local user may do all but legal reads). */
  McpHttpFixture(Path dataDir, List<Credential> credentials) {
    this(dataDir, credentials, RequestLimits.defaults());
  }

  /** A server with {@code credentials} and {@code limits}, for HTTP and MCP alike. */
  McpHttpFixture(Path dataDir, List<Credential> credentials, RequestLimits limits) {
    this(dataDir, credentials, limits, HashingEmbeddingProvider.create());
  }

  /**
   * A server with {@code credentials} and {@code limits} whose recall embeds with {@code model}.
   */
  McpHttpFixture(
      Path dataDir, List<Credential> credentials, RequestLimits limits, EmbeddingProvider model) {
    EmbeddingProvider embeddings = model;
    server =
        LociServer.builder(Loci.builder().dataDir(dataDir).durability(Durability.none()))
            .config(
                ServerConfig.defaults()
                    .withHost("127.0.0.1")
                    .withPort(0)
                    .withCredentials(credentials)
                    .withLimits(limits))
            .embeddings(embeddings)
            .retentionSweepEvery(Duration.ZERO)
            .drain(Duration.ofSeconds(5))
            .routes(
                (loci, provider) ->
                    LociMcpServer.create(loci, provider, Namespace.of("default"), limits).routes())
            .start();
  }

  /** A credential whose token is its id. */
  static Credential credential(String id, Role role, String scope) {
    return new Credential(id, Credential.hashHex(id), role, List.of(Grant.of(scope)));
  }

  String base() {
    return "http://127.0.0.1:" + server.port();
  }

  /** An initialized client presenting {@code token} (if any), with {@code ?ns=} if given. */
  McpSyncClient client(Optional<String> token, Optional<String> ns) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(base())
            .endpoint(LociMcpServer.PATH + ns.map(n -> "?ns=" + n).orElse(""))
            .jsonMapper(new JacksonMcpJsonMapper(MAPPER))
            .httpRequestCustomizer(
                (builder, method, uri, body, context) ->
                    token.ifPresent(t -> builder.header("Authorization", "Bearer " + t)))
            .build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    clients.add(client);
    client.initialize();
    return client;
  }

  /** Calls a tool. */
  static McpSchema.CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
    return c.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  /** The structured content of a result, as JSON. */
  static JsonNode json(McpSchema.CallToolResult r) {
    return MAPPER.valueToTree(r.structuredContent());
  }

  /** The text of a result's one text content. */
  static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }

  @Override
  public void close() {
    clients.forEach(
        c -> {
          try {
            c.closeGracefully();
          } catch (RuntimeException e) {
            // the server may already be gone
          }
        });
    server.close();
  }
}
