package dev.loci.mcp;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.GovernedScoring;
import dev.loci.mcp.internal.EntityTools;
import dev.loci.mcp.internal.GraphTools;
import dev.loci.mcp.internal.HttpTransport;
import dev.loci.mcp.internal.McpJson;
import dev.loci.mcp.internal.McpMemoryPack;
import dev.loci.mcp.internal.MemoryTools;
import dev.loci.mcp.internal.NodeResources;
import dev.loci.mcp.internal.RecallTools;
import dev.loci.mcp.internal.ToolRunner;
import dev.loci.mcp.internal.ToolSpec;
import dev.loci.recall.IngestEmbedder;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.server.RequestLimits;
import dev.loci.server.Role;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Loci as an MCP server: Loci's own tools ({@code remember}, {@code recall}, {@code context},
 * {@code history}, {@code forget}, {@code ingest}, {@code review_queue}, {@code promote}, {@code
 * reject}), the nine tools of the reference MCP memory server ({@code create_entities} ... {@code
 * open_nodes}) over the memory graph, and the node resources {@code loci://ns/{ns}/nodes/{id}}.
 *
 * <pre>{@code
 * try (Loci loci = Loci.open(dir)) {
 *   LociMcpServer.create(loci, HashingEmbeddingProvider.create(), Namespace.of("default"))
 *       .serveStdio(System.in, System.out);
 * }
 * }</pre>
 *
 * <p>Over stdio ({@link #serveStdio}) the caller is the local user, who may do everything but read
 * superseded versions that only a {@code legal} credential may. Over HTTP ({@link #routes()}) the
 * route {@code POST /mcp} sits behind the server's pipeline like every other route: a credential is
 * required once one is configured, and each tool call is bounded by the credential's role and
 * namespace grant, checked per call. Tools translate to the layer facades; every failure is a tool
 * error naming the argument, never a dropped session. Thread-safe.
 */
public final class LociMcpServer implements AutoCloseable {
  /** The server name in {@code initialize}. */
  public static final String NAME = "loci";

  /** The route of streamable HTTP inside {@code loci serve}. */
  public static final String PATH = "/mcp";

  /**
   * The domain pack that reads the reference MCP memory server's {@code memory.jsonl} into the
   * entity nodes and relation edges its tools write ({@code loci import --format mcp-memory}).
   */
  public static final String MEMORY_PACK = McpMemoryPack.NAME;

  /** Who the journal records as the author of writes over stdio. */
  public static final String STDIO_ACTOR = "mcp";

  private static final String INSTRUCTIONS =
      "Loci is a versioned memory with evidence. Use remember to store what is worth keeping"
          + " (it becomes a candidate a person promotes), recall to answer from memory with the"
          + " path and sources of each item, context for the trusted context of a prompt. The"
          + " entity tools (create_entities, search_nodes, ...) work as in the reference MCP memory"
          + " server.";

  private static final McpSchema.ServerCapabilities CAPABILITIES =
      McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build();

  private static final DefaultJsonSchemaValidator VALIDATOR =
      new DefaultJsonSchemaValidator(McpJson.MAPPER);

  private final List<ToolSpec> tools;
  private final NodeResources resources;
  private final Namespace defaultNamespace;
  private final IngestEmbedder embedder;

  private LociMcpServer(
      List<ToolSpec> tools,
      NodeResources resources,
      Namespace defaultNamespace,
      IngestEmbedder embedder) {
    this.tools = tools;
    this.resources = resources;
    this.defaultNamespace = defaultNamespace;
    this.embedder = embedder;
  }

  /**
   * A server over {@code loci}, whose recall embeds with {@code embeddings} (the provider the rest
   * of the process uses, so that recall's vectors stay of one model), acting in {@code
   * defaultNamespace} when a call names no namespace.
   *
   * @throws IllegalStateException if {@code loci} was opened without the recall or governed layer
   */
  public static LociMcpServer create(
      Loci loci, EmbeddingProvider embeddings, Namespace defaultNamespace) {
    return create(loci, embeddings, defaultNamespace, RequestLimits.defaults());
  }

  /**
   * Like {@link #create(Loci, EmbeddingProvider, Namespace)}, with the request limits of {@code
   * limits} (those of the HTTP server it is served by, {@code loci.toml}'s {@code [limits]}) held
   * by the tools that check them as the HTTP routes do: {@code recall_query_terms} and {@code
   * ingest_*}.
   */
  public static LociMcpServer create(
      Loci loci, EmbeddingProvider embeddings, Namespace defaultNamespace, RequestLimits limits) {
    Objects.requireNonNull(loci, "loci");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(defaultNamespace, "defaultNamespace");
    // scored as the HTTP API scores: a superseded or invalid governed memory never outranks its
    // active successor
    RecallMemory recall =
        RecallMemory.of(loci, embeddings)
            .withIngestLimits(limits.ingest())
            .withScoring(GovernedScoring.INSTANCE);
    List<ToolSpec> tools = new ArrayList<>();
    MemoryTools memory = new MemoryTools(loci, GovernedMemory.of(loci), recall);
    List<ToolSpec> own = memory.tools();
    tools.add(own.get(0)); // remember
    GovernedRecall graph =
        GovernedRecall.of(GovernedMemory.of(loci), GovernedEntities.of(loci), recall);
    IngestEmbedder embedder = new IngestEmbedder(recall);
    tools.addAll(new RecallTools(recall, limits, graph, embedder).tools()); // recall, ingest
    tools.addAll(own.subList(1, own.size()));
    tools.addAll(new EntityTools(GovernedEntities.of(loci)).tools());
    tools.addAll(new GraphTools(recall).tools());
    return new LociMcpServer(
        List.copyOf(tools), new NodeResources(recall), defaultNamespace, embedder);
  }

  /**
   * Stops computing the vectors of earlier {@code ingest} calls ({@link IngestEmbedder#close}):
   * call it once no client is served any more and before the {@link Loci} and the embedding
   * provider close. The route set of {@link #routes()} closes it too, so a {@code LociServer} that
   * serves those routes closes it when it stops.
   */
  @Override
  public void close() {
    embedder.close();
  }

  /** The names of the tools, in the order {@code tools/list} shows them. */
  public List<String> toolNames() {
    return tools.stream().map(ToolSpec::name).toList();
  }

  /** The namespace of calls that name none. */
  public Namespace defaultNamespace() {
    return defaultNamespace;
  }

  /**
   * Serves one client over {@code in} and {@code out} (newline-delimited JSON-RPC, nothing else is
   * written to {@code out}) until {@code in} ends, then returns. Logs go to the JDK logger, never
   * to {@code out}.
   */
  public void serveStdio(InputStream in, OutputStream out) throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched = new EndWatchingStream(in, ended);
    McpSyncServer server =
        McpServer.sync(new StdioServerTransportProvider(McpJson.PROTOCOL, watched, out))
            .serverInfo(NAME, version())
            .instructions(INSTRUCTIONS)
            .jsonMapper(McpJson.PROTOCOL)
            .jsonSchemaValidator(VALIDATOR)
            .capabilities(CAPABILITIES)
            .immediateExecution(true)
            .tools(
                tools.stream()
                    .map(
                        t ->
                            new McpServerFeatures.SyncToolSpecification(
                                t.tool(),
                                (exchange, request) ->
                                    ToolRunner.run(
                                        t,
                                        McpCaller.local(STDIO_ACTOR),
                                        request.arguments(),
                                        defaultNamespace)))
                    .toList())
            .resourceTemplates(
                NodeResources.templates().stream()
                    .map(
                        template ->
                            new McpServerFeatures.SyncResourceTemplateSpecification(
                                template,
                                (exchange, request) ->
                                    resources.read(McpCaller.local(STDIO_ACTOR), request.uri())))
                    .toList())
            .build();
    try {
      ended.await();
    } finally {
      server.closeGracefully();
    }
  }

  /**
   * The route set of streamable HTTP at {@value #PATH}: {@code POST} carries JSON-RPC (the caller
   * needs at least the reader role to reach it; each tool checks more), {@code GET} and {@code
   * DELETE} answer 405 (the server keeps no sessions and opens no event stream). The query
   * parameter {@code ns} sets the namespace of calls that name none.
   */
  public RouteSet routes() {
    HttpTransport transport = new HttpTransport();
    McpStatelessSyncServer server =
        McpServer.sync(transport)
            .serverInfo(NAME, version())
            .instructions(INSTRUCTIONS)
            .jsonMapper(McpJson.PROTOCOL)
            .jsonSchemaValidator(VALIDATOR)
            .capabilities(CAPABILITIES)
            .immediateExecution(true)
            .tools(
                tools.stream()
                    .map(
                        t ->
                            new McpStatelessServerFeatures.SyncToolSpecification(
                                t.tool(),
                                (context, request) ->
                                    ToolRunner.run(
                                        t,
                                        caller(context),
                                        request.arguments(),
                                        (Namespace) context.get(HttpTransport.NAMESPACE))))
                    .toList())
            .resourceTemplates(
                NodeResources.templates().stream()
                    .map(
                        template ->
                            new McpStatelessServerFeatures.SyncResourceTemplateSpecification(
                                template,
                                (context, request) ->
                                    resources.read(caller(context), request.uri())))
                    .toList())
            .build();
    Objects.requireNonNull(server, "server");
    List<Route> routes =
        List.of(
            Route.of(
                Route.Method.POST,
                PATH,
                Role.READER,
                Route.NamespaceAccess.NONE,
                true,
                ex ->
                    transport.handle(
                        ex, ex.query("ns").map(Namespace::of).orElse(defaultNamespace))),
            Route.of(
                Route.Method.GET,
                PATH,
                Role.READER,
                Route.NamespaceAccess.NONE,
                false,
                ex -> noStream()),
            Route.of(
                Route.Method.DELETE,
                PATH,
                Role.READER,
                Route.NamespaceAccess.NONE,
                false,
                ex -> noStream()));
    return new ClosingRoutes(routes, this);
  }

  /** The routes of {@link #routes()}; closing them closes the server ({@link #close()}). */
  private record ClosingRoutes(List<Route> routes, LociMcpServer server)
      implements RouteSet, AutoCloseable {
    @Override
    public void close() {
      server.close();
    }
  }

  private static McpCaller caller(McpTransportContext context) {
    return (McpCaller) context.get(HttpTransport.CALLER);
  }

  private static void noStream() {
    throw new HttpProblem(
        405,
        "method-not-allowed",
        "Method not allowed",
        "the MCP endpoint keeps no sessions and opens no event stream: POST JSON-RPC messages",
        Optional.empty());
  }

  private static String version() {
    return Optional.ofNullable(LociMcpServer.class.getPackage().getImplementationVersion())
        .orElse("dev");
  }

  /** Counts down a latch when the stream ends or fails, so a stdio server knows its client left. */
  private static final class EndWatchingStream extends FilterInputStream {
    private final CountDownLatch ended;

    EndWatchingStream(InputStream in, CountDownLatch ended) {
      super(in);
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      return watch(() -> super.read());
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return watch(() -> super.read(b, off, len));
    }

    private int watch(IoRead read) throws IOException {
      try {
        int n = read.read();
        if (n < 0) {
          ended.countDown();
        }
        return n;
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
    }

    @FunctionalInterface
    private interface IoRead {
      int read() throws IOException;
    }
  }
}
