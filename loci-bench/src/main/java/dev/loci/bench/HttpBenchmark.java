package dev.loci.bench;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import dev.loci.server.LociServer;
import dev.loci.server.ServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTP benchmark ({@code loci bench http}): requests per second and p50/p99 latency of {@code
 * GET} one trace, {@code POST} a trace (durability {@code always}: each acknowledged add is
 * fsynced) and a tag search, with N concurrent clients on loopback, against the same operations
 * through the embedded Java API on the same open store in the same run. The ratio is what HTTP
 * (Jetty, JSON, credentials checks, the client) costs over calling Loci in-process.
 *
 * <p>Run: {@code ./loci bench http [--clients 16] [--seconds 5] [--out FILE]}.
 *
 * <p>Design. One server over a fresh directory of the work directory, with one writer token
 * configured so every request goes through authentication. {@code records} traces are added first
 * (not measured), spread over {@link #TAGS} tags. Then for each operation the embedded peer and
 * HTTP each run N threads flat out for a warm-up and a measured window; every call's latency is
 * recorded, and only calls that returned the expected status count. HTTP uses one {@link
 * HttpClient} (HTTP/1.1, so one pooled connection per client thread).
 */
public final class HttpBenchmark {
  /** Distinct tags the pre-added traces carry; a search matches one of them. */
  public static final int TAGS = 100;

  private static final String NS = "bench";

  private HttpBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the store is made (and deleted)
   * @param clients concurrent clients (threads), 1 to 1024
   * @param warmup per measurement, before counting
   * @param measurement per measurement
   * @param records traces added before measuring
   * @param pageClients concurrent clients (threads) of the web UI's pages and their API peers, 1 to
   *     1024
   */
  public record Options(
      Path workDir,
      int clients,
      Duration warmup,
      Duration measurement,
      int records,
      int pageClients) {
    /** Checks the fields. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      Objects.requireNonNull(warmup, "warmup");
      Objects.requireNonNull(measurement, "measurement");
      if (clients < 1 || clients > 1024) {
        throw new IllegalArgumentException("clients must be 1 to 1024, found " + clients);
      }
      if (pageClients < 1 || pageClients > 1024) {
        throw new IllegalArgumentException("page clients must be 1 to 1024, found " + pageClients);
      }
      if (measurement.isZero() || measurement.isNegative() || warmup.isNegative()) {
        throw new IllegalArgumentException("measurement must be positive, warmup not negative");
      }
      if (records < 1) {
        throw new IllegalArgumentException("records must be at least 1, found " + records);
      }
    }

    /**
     * 16 clients (4 for pages), 1 s warm-up, 5 s measured, 10,000 traces, in {@code
     * ./loci-bench-work}.
     */
    public static Options defaults() {
      return new Options(
          Path.of("loci-bench-work"), 16, Duration.ofSeconds(1), Duration.ofSeconds(5), 10_000, 4);
    }

    /** The same options with {@code n} clients, for the page measurements. */
    Options withClients(int n) {
      return new Options(workDir, n, warmup, measurement, records, pageClients);
    }
  }

  /**
   * One measurement.
   *
   * @param operation {@code GET trace}, {@code POST trace} or {@code search}
   * @param side {@code http} or {@code embedded}
   * @param operations calls completed in the window
   * @param seconds the window
   * @param p50Micros median latency
   * @param p99Micros 99th percentile latency
   */
  public record Result(
      String operation,
      String side,
      long operations,
      double seconds,
      double p50Micros,
      double p99Micros) {
    /** Calls per second. */
    public double perSecond() {
      return operations / seconds;
    }
  }

  /**
   * A whole run.
   *
   * @param machine where it ran
   * @param options what ran
   * @param results embedded then HTTP, per operation
   * @param pages the web UI's pages, each after the API route it is set beside (side {@code api}
   *     then {@code page})
   */
  public record Report(Machine machine, Options options, List<Result> results, List<Result> pages) {
    /** A Markdown table: each operation's rates, latencies and the HTTP / embedded ratio. */
    public String toMarkdown() {
      StringBuilder sb = new StringBuilder();
      sb.append(
          String.format(
              Locale.ROOT,
              "%d clients on loopback, %d cores, %s, load %.1f at start; peer: the same calls on"
                  + " the embedded Java API in the same process%n%n",
              options.clients(),
              machine.cores(),
              machine.jdk(),
              machine.loadAverage()));
      sb.append("| operation | HTTP req/s | HTTP p50 | HTTP p99 | embedded ops/s | embedded p50 |")
          .append(" embedded p99 | HTTP / embedded |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
      for (int i = 0; i + 1 < results.size(); i += 2) {
        Result e = results.get(i);
        Result h = results.get(i + 1);
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %,.0f | %,.1f us | %,.1f us | %,.0f | %,.1f us | %,.1f us | %.3fx |%n",
                h.operation(),
                h.perSecond(),
                h.p50Micros(),
                h.p99Micros(),
                e.perSecond(),
                e.p50Micros(),
                e.p99Micros(),
                h.perSecond() / e.perSecond()));
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "%nWeb UI pages (server-rendered, %d clients, %,d traces in the namespace), each"
                  + " beside an API route measured in the same run%n%n"
                  + "| page | req/s | p50 | p99 | API peer | API p99 | page p99 / API p99 |%n"
                  + "|---|---:|---:|---:|---|---:|---:|%n",
              options.pageClients(),
              options.records()));
      for (int i = 0; i + 1 < pages.size(); i += 2) {
        Result api = pages.get(i);
        Result page = pages.get(i + 1);
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %,.0f | %,.1f us | %,.1f us | %s | %,.1f us | %.2fx |%n",
                page.operation(),
                page.perSecond(),
                page.p50Micros(),
                page.p99Micros(),
                api.operation(),
                api.p99Micros(),
                page.p99Micros() / api.p99Micros()));
      }
      return sb.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      StringBuilder sb = new StringBuilder("{\"clients\":").append(options.clients());
      sb.append(",\"cores\":").append(machine.cores());
      sb.append(",\"page_clients\":").append(options.pageClients());
      sb.append(",\"records\":").append(options.records());
      sb.append(",\"jdk\":\"").append(machine.jdk().replace("\"", "'")).append("\",\"results\":");
      json(sb, results);
      sb.append(",\"pages\":");
      json(sb, pages);
      return sb.append("}\n").toString();
    }

    private static void json(StringBuilder sb, List<Result> list) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        Result r = list.get(i);
        sb.append(i == 0 ? "" : ",")
            .append(
                String.format(
                    Locale.ROOT,
                    "{\"operation\":\"%s\",\"side\":\"%s\",\"operations\":%d,\"seconds\":%.3f,"
                        + "\"per_second\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f}",
                    r.operation().replace("\"", "'"),
                    r.side(),
                    r.operations(),
                    r.seconds(),
                    r.perSecond(),
                    r.p50Micros(),
                    r.p99Micros()));
      }
      sb.append(']');
    }
  }

  /** One call; returns normally only when it succeeded. */
  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  /** Runs the benchmark, printing progress to {@code progress}. */
  public static Report run(Options options, PrintStream progress) {
    try {
      Files.createDirectories(options.workDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Machine machine = Machine.describe(options.workDir());
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "http-")) {
      Path config = scratch.path().resolve("loci.toml");
      String token =
          dev.loci.server.ConfigFile.addToken(
                  config,
                  dev.loci.server.Role.WRITER,
                  List.of(dev.loci.server.Grant.of(NS)),
                  java.util.Optional.of("bench"))
              .token();
      ServerConfig cfg = dev.loci.server.ConfigFile.load(config).withHost("127.0.0.1").withPort(0);
      try (LociServer server =
          LociServer.builder(Loci.builder().dataDir(scratch.path().resolve("data")))
              .config(cfg)
              .web(dev.loci.ui.LociUi::create)
              .start()) {
        Traces traces = server.loci().traces();
        Namespace ns = Namespace.of(NS);
        progress.printf("loci: adding %,d traces...%n", options.records());
        List<String> uids = seed(traces, ns, options);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://127.0.0.1:" + server.port() + "/v1/ns/" + NS + "/traces";
        List<Result> results = new ArrayList<>();

        Call embeddedGet = () -> traces.get(ns, pick(uids));
        Call httpGet = () -> expect(client, request(base + "/" + pick(uids), token).GET(), 200);
        measure("GET trace", embeddedGet, httpGet, options, progress, results);

        Call embeddedPost = () -> traces.add(ns, "{\"note\":\"benchmark\"}", List.of("post"));
        Call httpPost =
            () ->
                expect(
                    client,
                    request(base, token)
                        .header("Content-Type", "application/json")
                        .POST(
                            HttpRequest.BodyPublishers.ofString(
                                "{\"content\":{\"note\":\"benchmark\"},\"tags\":[\"post\"]}")),
                    201);
        measure("POST trace", embeddedPost, httpPost, options, progress, results);

        Call embeddedSearch = () -> traces.search(TraceQuery.in(ns).tag(tag()).limit(10).build());
        Call httpSearch =
            () -> expect(client, request(base + "?limit=10&tag=" + tag(), token).GET(), 200);
        measure("search", embeddedSearch, httpSearch, options, progress, results);
        List<Result> pages = pages(client, server.port(), token, uids, options, progress);
        return new Report(machine, options, results, pages);
      }
    }
  }

  /**
   * The web UI's pages over the seeded namespace, signed in with {@code token} (one session shared
   * by the clients), each set beside an API route measured right before it.
   */
  private static List<Result> pages(
      HttpClient client,
      int port,
      String token,
      List<String> uids,
      Options options,
      PrintStream progress) {
    String root = "http://127.0.0.1:" + port;
    String cookie;
    try {
      cookie = UiSession.login(client, root, token);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signing in to the web UI", e);
    }
    String api = root + "/v1/ns/" + NS + "/traces";
    String ui = root + "/ui/ns/" + NS;
    Options o = options.withClients(options.pageClients());
    List<Result> out = new ArrayList<>();
    Call apiGet = () -> expect(client, request(api + "/" + pick(uids), token).GET(), 200);
    Call apiSearch =
        () -> expect(client, request(api + "?limit=50&tag=" + tag(), token).GET(), 200);
    page(
        out,
        o,
        progress,
        "GET trace (API)",
        apiGet,
        "trace page",
        () -> expect(client, page(ui + "/traces/" + pick(uids), cookie), 200));
    page(
        out,
        o,
        progress,
        "search, 50 (API)",
        apiSearch,
        "trace search page, 50",
        () -> expect(client, page(ui + "/traces?tag=" + tag(), cookie), 200));
    page(
        out,
        o,
        progress,
        "GET trace (API)",
        apiGet,
        "namespace overview page",
        () -> expect(client, page(ui, cookie), 200));
    page(
        out,
        o,
        progress,
        "GET trace (API)",
        apiGet,
        "namespace tree page",
        () -> expect(client, page(root + "/ui", cookie), 200));
    return out;
  }

  private static HttpRequest.Builder page(String url, String cookie) {
    return HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookie).GET();
  }

  private static void page(
      List<Result> out,
      Options o,
      PrintStream progress,
      String apiName,
      Call apiCall,
      String pageName,
      Call pageCall) {
    progress.printf("loci: %s, beside %s...%n", pageName, apiName);
    out.add(latencies(apiName, "api", apiCall, o));
    out.add(latencies(pageName, "page", pageCall, o));
  }

  private static List<String> seed(Traces traces, Namespace ns, Options options) {
    List<String> uids = java.util.Collections.synchronizedList(new ArrayList<>());
    List<ThroughputRun.Writer> writers = new ArrayList<>();
    for (int k = 0; k < options.clients(); k++) {
      writers.add(
          i ->
              uids.add(
                  traces
                      .add(ns, "{\"note\":\"seed\",\"i\":" + i + "}", List.of("t" + (i % TAGS)))
                      .uid()));
    }
    ThroughputRun.runCount("seed", writers, options.records());
    return List.copyOf(uids);
  }

  private static String pick(List<String> uids) {
    return uids.get(ThreadLocalRandom.current().nextInt(uids.size()));
  }

  private static String tag() {
    return "t" + ThreadLocalRandom.current().nextInt(TAGS);
  }

  private static HttpRequest.Builder request(String url, String token) {
    return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token);
  }

  private static void expect(HttpClient client, HttpRequest.Builder request, int status)
      throws Exception {
    HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != status) {
      throw new IllegalStateException(
          "expected " + status + ", got " + r.statusCode() + ": " + r.body());
    }
  }

  private static void measure(
      String operation,
      Call embedded,
      Call http,
      Options o,
      PrintStream progress,
      List<Result> out) {
    progress.printf("loci: %s, embedded...%n", operation);
    out.add(latencies(operation, "embedded", embedded, o));
    progress.printf("loci: %s, http...%n", operation);
    out.add(latencies(operation, "http", http, o));
  }

  /**
   * Runs {@code call} on {@code clients} threads for the warm-up and then the measured window, and
   * returns the count and the latency percentiles of calls that started inside the window.
   */
  private static Result latencies(String operation, String side, Call call, Options o) {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    long[][] samples = new long[o.clients()][];
    int[] counts = new int[o.clients()];
    long[] window = new long[2];
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < o.clients(); k++) {
      int id = k;
      Thread t =
          new Thread(
              () -> {
                long[] mine = new long[1 << 14];
                int n = 0;
                try {
                  start.await();
                  while (!stop.get()) {
                    long t0 = System.nanoTime();
                    call.run();
                    long t1 = System.nanoTime();
                    if (t0 >= window[0] && t1 <= window[1]) {
                      if (n == mine.length) {
                        mine = Arrays.copyOf(mine, n * 2);
                      }
                      mine[n++] = t1 - t0;
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                  stop.set(true);
                }
                samples[id] = mine;
                counts[id] = n;
              },
              side + "-" + operation + "-" + k);
      t.setDaemon(true);
      threads.add(t);
    }
    long now = System.nanoTime();
    window[0] = now + o.warmup().toNanos();
    window[1] = window[0] + o.measurement().toNanos();
    threads.forEach(Thread::start);
    start.countDown();
    try {
      while (System.nanoTime() < window[1] && !stop.get()) {
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          side + " " + operation + " failed: " + failure.get(), failure.get());
    }
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int k = 0; k < samples.length; k++) {
      System.arraycopy(samples[k], 0, all, at, counts[k]);
      at += counts[k];
    }
    Arrays.sort(all);
    double seconds = o.measurement().toNanos() / 1e9;
    return new Result(
        operation, side, total, seconds, percentile(all, 0.50), percentile(all, 0.99));
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000.0;
  }
}
