package dev.loci.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.mcp.LociMcpServer;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * The MCP benchmark ({@code loci bench mcp}): latency p50/p99 of the {@code recall} and {@code
 * remember} tools called by a real MCP SDK client over stdio (a {@code loci mcp} child process) and
 * over streamable HTTP ({@code /mcp} in a server, with a token), against the same operations on the
 * embedded Java API in the same run. The difference of the medians is what MCP costs: JSON-RPC
 * framing, argument validation, rendering the reply, the transport.
 *
 * <p>Run: {@code ./loci bench mcp [--calls 2000] [--warmup 1000] [--out FILE]}.
 *
 * <p>Design. One client, calls one after another, so the figure is latency, not throughput; the
 * sides take turns call by call, so a change of load during the run weighs on each alike. Each side
 * has a store seeded with the demo corpus (a contract and a runbook) in namespace {@value #NS}, all
 * embedding with the hashing provider so that no side pays for a model: the embedded peer and HTTP
 * share the server's instance; stdio has its own directory, seeded the same way before the child
 * starts (the child holds its lock). {@code recall} asks the demo questions in turn ({@code
 * hybrid}, k 5); {@code remember} proposes a short governed memory, a durable write on every side.
 * Every tool result is checked: an error result fails the run.
 */
public final class McpBenchmark {
  private static final String NS = "bench";
  private static final String TOKEN = "bench-mcp-token-0123456789";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private McpBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the stores are made (and deleted)
   * @param calls measured calls per operation and side, at least 10
   * @param warmup calls per operation and side before measuring, at least 0
   * @param launcher the command that runs Loci's command line, for example {@code [java, -cp,
   *     loci.jar, dev.loci.cli.Main]}; {@code mcp --data DIR --ns NS --embedding hashing} is
   *     appended to start the stdio server
   */
  public record Options(Path workDir, int calls, int warmup, List<String> launcher) {
    /** Checks the fields and copies the launcher. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      launcher = List.copyOf(launcher);
      if (calls < 10) {
        throw new IllegalArgumentException("calls must be at least 10, found " + calls);
      }
      if (warmup < 0) {
        throw new IllegalArgumentException("warmup must be at least 0, found " + warmup);
      }
      if (launcher.isEmpty()) {
        throw new IllegalArgumentException("launcher must name a command, found none");
      }
    }
  }

  /**
   * One measurement.
   *
   * @param operation {@code recall} or {@code remember}
   * @param side {@code embedded}, {@code stdio} or {@code http}
   * @param calls calls measured
   * @param p50Micros median latency
   * @param p99Micros 99th percentile latency
   */
  public record Result(
      String operation, String side, int calls, double p50Micros, double p99Micros) {}

  /**
   * A whole run.
   *
   * @param machine where it ran
   * @param options what ran
   * @param results per operation: embedded, stdio, http
   */
  public record Report(Machine machine, Options options, List<Result> results) {
    /** The result of {@code side} for {@code operation}. */
    public Result result(String operation, String side) {
      return results.stream()
          .filter(r -> r.operation().equals(operation) && r.side().equals(side))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no result " + operation + "/" + side));
    }

    /**
     * A Markdown table: per operation and side, p50 and p99, and the p50 overhead over embedded.
     */
    public String toMarkdown() {
      StringBuilder sb = new StringBuilder();
      sb.append(
          String.format(
              Locale.ROOT,
              "%,d calls per cell after %,d warm-up calls, one client, %d cores, %s, load %.1f at"
                  + " start; peer: the same operation on the embedded Java API in the same run%n%n",
              options.calls(),
              options.warmup(),
              machine.cores(),
              machine.jdk(),
              machine.loadAverage()));
      sb.append("| tool | side | p50 | p99 | p50 overhead vs embedded | p50 / embedded |\n")
          .append("|---|---|---:|---:|---:|---:|\n");
      for (Result r : results) {
        Result e = result(r.operation(), "embedded");
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %,.1f us | %,.1f us | %s | %.2fx |%n",
                r.operation(),
                r.side(),
                r.p50Micros(),
                r.p99Micros(),
                r.side().equals("embedded")
                    ? "-"
                    : String.format(Locale.ROOT, "%+,.1f us", r.p50Micros() - e.p50Micros()),
                r.p50Micros() / e.p50Micros()));
      }
      return sb.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      ObjectNode root =
          MAPPER
              .createObjectNode()
              .put("calls", options.calls())
              .put("warmup", options.warmup())
              .put("cores", machine.cores())
              .put("jdk", machine.jdk());
      ArrayNode rows = root.putArray("results");
      for (Result r : results) {
        rows.addObject()
            .put("operation", r.operation())
            .put("side", r.side())
            .put("calls", r.calls())
            .put("p50_us", r.p50Micros())
            .put("p99_us", r.p99Micros());
      }
      return root.toPrettyString() + "\n";
    }
  }

  /** Runs the benchmark, printing progress to {@code progress}. */
  public static Report run(Options options, PrintStream progress) {
    try {
      Files.createDirectories(options.workDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Machine machine = Machine.describe(options.workDir());
    List<String> questions = DemoCorpus.questions().stream().map(q -> q.question()).toList();
    Namespace ns = Namespace.of(NS);
    List<Result> results = new ArrayList<>();
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "mcp-")) {
      Path stdioData = scratch.path().resolve("stdio");
      try (Loci loci = Loci.open(stdioData);
          CachingEmbeddingProvider embeddings = Embeddings.open(Embeddings.HASHING, stdioData)) {
        seed(loci, embeddings, ns);
      }
      Path serverData = scratch.path().resolve("server");
      try (CachingEmbeddingProvider embeddings = Embeddings.open(Embeddings.HASHING, serverData);
          LociServer server = server(serverData, embeddings);
          McpSyncClient http = httpClient(server);
          McpSyncClient stdio = stdioClient(options, stdioData)) {
        progress.println("loci: seeding the demo corpus...");
        seed(server.loci(), embeddings, ns);
        RecallMemory recall = RecallMemory.of(server.loci(), embeddings);
        GovernedMemory governed = GovernedMemory.of(server.loci()).as("bench");
        Map<String, IntConsumer> recalls = new LinkedHashMap<>();
        recalls.put(
            "embedded",
            i ->
                recall.recall(
                    ns,
                    RecallQuery.builder(questions.get(i % questions.size()), RecallMode.HYBRID)
                        .k(5)
                        .build()));
        Map<String, IntConsumer> remembers = new LinkedHashMap<>();
        remembers.put(
            "embedded",
            i ->
                governed.propose(
                    ns,
                    new MemoryDraft(
                        MemoryType.EPISODIC,
                        "benchmark note embedded " + i,
                        0.5,
                        Optional.empty(),
                        List.of(),
                        Provenance.of("bench"))));
        Map<String, McpSyncClient> clients = Map.of("stdio", stdio, "http", http);
        for (String side : List.of("stdio", "http")) {
          McpSyncClient c = clients.get(side);
          recalls.put(
              side,
              i ->
                  call(
                      c,
                      "recall",
                      Map.of(
                          "query", questions.get(i % questions.size()), "mode", "hybrid", "k", 5)));
          remembers.put(
              side,
              i -> call(c, "remember", Map.of("content", "benchmark note " + side + " " + i)));
        }
        measure("recall", recalls, options, progress, results);
        measure("remember", remembers, options, progress, results);
      }
    }
    return new Report(machine, options, results);
  }

  private static void seed(Loci loci, CachingEmbeddingProvider embeddings, Namespace ns) {
    RecallMemory memory = RecallMemory.of(loci, embeddings);
    for (DemoCorpus.Document d : DemoCorpus.documents()) {
      memory.ingest(
          NamespaceScope.exactly(ns),
          DomainPacks.named(d.pack()),
          List.of(d.document()),
          RecallMemory.Progress.NONE);
    }
    memory.embed(ns, RecallMemory.Progress.NONE);
  }

  private static LociServer server(Path data, CachingEmbeddingProvider embeddings) {
    Credential writer =
        new Credential("bench", Credential.hashHex(TOKEN), Role.WRITER, List.of(Grant.of(NS)));
    return LociServer.builder(Loci.builder().dataDir(data))
        .config(
            ServerConfig.defaults()
                .withHost("127.0.0.1")
                .withPort(0)
                .withCredentials(List.of(writer)))
        .embeddings(embeddings)
        .retentionSweepEvery(Duration.ZERO)
        .routes((loci, provider) -> LociMcpServer.create(loci, provider, Namespace.of(NS)).routes())
        .start();
  }

  private static McpSyncClient httpClient(LociServer server) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
            .endpoint(LociMcpServer.PATH)
            .jsonMapper(new JacksonMcpJsonMapper(MAPPER))
            .httpRequestCustomizer(
                (builder, method, uri, body, context) ->
                    builder.header("Authorization", "Bearer " + TOKEN))
            .build();
    return initialized(transport);
  }

  private static McpSyncClient stdioClient(Options options, Path data) {
    List<String> command = new ArrayList<>(options.launcher());
    command.addAll(
        List.of("mcp", "--data", data.toString(), "--ns", NS, "--embedding", Embeddings.HASHING));
    ServerParameters params =
        ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
    return initialized(new StdioClientTransport(params, new JacksonMcpJsonMapper(MAPPER)));
  }

  private static McpSyncClient initialized(io.modelcontextprotocol.spec.McpClientTransport t) {
    McpSyncClient client = McpClient.sync(t).requestTimeout(Duration.ofSeconds(120)).build();
    client.initialize();
    return client;
  }

  private static void call(McpSyncClient client, String tool, Map<String, Object> args) {
    McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
    if (Boolean.TRUE.equals(r.isError())) {
      throw new IllegalStateException(tool + " answered an error: " + r.content());
    }
  }

  /**
   * Measures {@code operation} on every side, interleaved call by call (embedded, stdio, http,
   * embedded, ...) so that a change in the machine's load or the disk's latency during the run
   * weighs on every side alike.
   */
  private static void measure(
      String operation,
      Map<String, IntConsumer> sides,
      Options o,
      PrintStream progress,
      List<Result> out) {
    progress.printf("loci: %s on %s, interleaved...%n", operation, sides.keySet());
    for (int i = 0; i < o.warmup(); i++) {
      for (IntConsumer call : sides.values()) {
        call.accept(i);
      }
    }
    Map<String, long[]> samples = new LinkedHashMap<>();
    sides.keySet().forEach(side -> samples.put(side, new long[o.calls()]));
    for (int i = 0; i < o.calls(); i++) {
      for (Map.Entry<String, IntConsumer> side : sides.entrySet()) {
        long t0 = System.nanoTime();
        side.getValue().accept(o.warmup() + i);
        samples.get(side.getKey())[i] = System.nanoTime() - t0;
      }
    }
    samples.forEach(
        (side, t) -> {
          Arrays.sort(t);
          out.add(new Result(operation, side, o.calls(), percentile(t, 0.50), percentile(t, 0.99)));
        });
  }

  private static double percentile(long[] sorted, double p) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000.0;
  }
}
