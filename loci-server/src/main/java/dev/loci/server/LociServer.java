package dev.loci.server;

import dev.loci.Loci;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.GovernedScoring;
import dev.loci.pathway.PathwayMemory;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.server.internal.ConfigWatcher;
import dev.loci.server.internal.EntityRoutes;
import dev.loci.server.internal.GovernRoutes;
import dev.loci.server.internal.HttpPipeline;
import dev.loci.server.internal.IngestWaves;
import dev.loci.server.internal.Metrics;
import dev.loci.server.internal.OpsRoutes;
import dev.loci.server.internal.PalaceRoutes;
import dev.loci.server.internal.PathwayRoutes;
import dev.loci.server.internal.PeriodicTask;
import dev.loci.server.internal.RecallRoutes;
import dev.loci.server.internal.RetentionSweeper;
import dev.loci.server.internal.SubjectRoutes;
import dev.loci.server.internal.TraceRoutes;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import dev.loci.subjects.Subjects;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Loci HTTP server: API v1 over one data directory, with credentials, body caps, rate limits,
 * metrics and an access log (Javalin on Jetty).
 *
 * <pre>{@code
 * try (LociServer server =
 *     LociServer.builder(Loci.builder().dataDir(dir)).config(ConfigFile.load(dir.resolve("loci.toml"))).start()) {
 *   server.awaitStop();
 * }
 * }</pre>
 *
 * <p>The server owns the {@link Loci} it opens: {@link #close()} stops accepting connections, lets
 * requests in flight finish (up to the drain time), then closes the data directory. Thread-safe.
 */
public final class LociServer implements AutoCloseable {
  private final Loci loci;
  private final HttpPipeline pipeline;
  private final List<Route> routes;
  private final String host;
  private final Optional<ConfigWatcher> watcher;
  private final List<AutoCloseable> owned;
  private final Object stopLock = new Object();
  private boolean stopped;

  private LociServer(
      Loci loci,
      HttpPipeline pipeline,
      List<Route> routes,
      String host,
      Optional<ConfigWatcher> watcher,
      List<AutoCloseable> owned) {
    this.loci = loci;
    this.pipeline = pipeline;
    this.routes = routes;
    this.host = host;
    this.watcher = watcher;
    this.owned = owned;
  }

  /** Starts configuring a server over the data directory {@code loci} will open. */
  public static Builder builder(Loci.Builder loci) {
    return new Builder(loci);
  }

  /**
   * The route sets of every layer, the one place where a layer's API is added: a new layer adds its
   * {@link RouteSet} here (and its paths to the OpenAPI document). Recall embeds queries and nodes
   * with {@code embeddings}.
   */
  public static List<RouteSet> standardRoutes(Loci loci, EmbeddingProvider embeddings) {
    return standardRoutes(loci, embeddings, RequestLimits.defaults());
  }

  /**
   * Like {@link #standardRoutes(Loci, EmbeddingProvider)}, with the tag and ingest limits of {@code
   * limits}.
   */
  public static List<RouteSet> standardRoutes(
      Loci loci, EmbeddingProvider embeddings, RequestLimits limits) {
    RecallMemory recall =
        RecallMemory.of(loci, embeddings)
            .withScoring(GovernedScoring.INSTANCE)
            .withIngestLimits(limits.ingest());
    MemoryPalace palace = MemoryPalace.of(loci, recall);
    GovernedMemory governed = GovernedMemory.of(loci);
    GovernedEntities entities = GovernedEntities.of(loci);
    GovernedRecall graph = GovernedRecall.of(governed, entities, recall);
    return List.of(
        new TraceRoutes(loci.traces(), limits.tagsPerTrace()),
        new PathwayRoutes(PathwayMemory.of(loci)),
        new RecallRoutes(recall, palace, IngestWaves.of(graph), limits.recallQueryTerms()),
        new GovernRoutes(governed),
        new EntityRoutes(governed, entities, graph),
        new SubjectRoutes(Subjects.of(loci), Clock.systemUTC()),
        new PalaceRoutes(palace));
  }

  /** The port the server listens on (the one chosen when the configuration said 0). */
  public int port() {
    return pipeline.port();
  }

  /** The address the server listens on. */
  public String host() {
    return host;
  }

  /** Every route served, operations routes included, in registration order. */
  public List<Route> routes() {
    return routes;
  }

  /** The credentials in force (they change when a watched configuration file does). */
  public List<Credential> credentials() {
    return pipeline.credentials();
  }

  /**
   * Checks the watched configuration file now instead of waiting for the next interval.
   *
   * @return true if its tokens were reloaded
   * @throws IllegalStateException if no configuration file is watched
   */
  public boolean reloadCredentials() {
    return watcher
            .orElseThrow(() -> new IllegalStateException("no configuration file is watched"))
            .check()
        == ConfigWatcher.Outcome.RELOADED;
  }

  /** The open data directory; closed by {@link #close()}. */
  public Loci loci() {
    return loci;
  }

  /** Blocks until {@link #close()} has finished on another thread. */
  public void awaitStop() throws InterruptedException {
    synchronized (stopLock) {
      while (!stopped) {
        stopLock.wait();
      }
    }
  }

  /**
   * Stops accepting connections, waits for requests in flight up to the drain time, closes an
   * embedding provider the server opened (see {@link Builder#embeddings(Function)}), then closes
   * the data directory. Idempotent.
   */
  @Override
  public void close() {
    synchronized (stopLock) {
      if (stopped) {
        return;
      }
      try {
        watcher.ifPresent(ConfigWatcher::close);
        pipeline.stop();
      } finally {
        try {
          owned.forEach(LociServer::closeQuietly);
          loci.close();
        } finally {
          stopped = true;
          stopLock.notifyAll();
        }
      }
    }
  }

  /**
   * Closes {@code resource} if present. What the server opens this way is derived state (a vector
   * cache), whose loss costs recomputation, so a failure to close it does not stop the shutdown.
   */
  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      // nothing left to do with it
    }
  }

  /** Configures and starts a {@link LociServer}; not thread-safe. */
  public static final class Builder {
    private final Loci.Builder loci;
    private ServerConfig config = ServerConfig.defaults();
    private final List<BiFunction<Loci, EmbeddingProvider, RouteSet>> extraRoutes =
        new ArrayList<>();
    private final List<BiFunction<Loci, EmbeddingProvider, dev.loci.server.spi.WebMount>> web =
        new ArrayList<>();
    private Consumer<String> accessLog = line -> {};
    private Duration drain = Duration.ofSeconds(30);
    private String configHint = ConfigFile.NAME;
    private Optional<Path> watched = Optional.empty();
    private Duration reloadEvery = Duration.ofSeconds(1);
    private Function<Loci, EmbeddingProvider> embeddings =
        opened -> HashingEmbeddingProvider.create();
    private boolean ownsEmbeddings;
    private Duration sweepEvery = Duration.ofDays(1);
    private Duration lifecycleSweepEvery = Duration.ofHours(1);
    private Duration conflictSweepEvery = Duration.ofDays(1);
    private Duration governedRecallEvery = Duration.ofHours(1);

    private Builder(Loci.Builder loci) {
      this.loci = Objects.requireNonNull(loci, "loci");
    }

    /** The configuration; default {@link ServerConfig#defaults()}. */
    public Builder config(ServerConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * Where the configuration was read from. It is named in the refusal to bind without a
     * credential, and watched while the server runs: when its bytes change, its {@code [[tokens]]}
     * replace the credentials in force (see {@link #reloadEvery}).
     */
    public Builder configFile(Path file) {
      this.configHint = file.toString();
      this.watched = Optional.of(file);
      return this;
    }

    /**
     * How often the {@link #configFile} is checked for new or revoked tokens; default 1 s. {@link
     * Duration#ZERO} checks only on {@link LociServer#reloadCredentials()}.
     */
    public Builder reloadEvery(Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException("reloadEvery: expected zero or more, found " + every);
      }
      this.reloadEvery = every;
      return this;
    }

    /**
     * The embedding provider of recall (the {@code embedding}, {@code hybrid} and graph modes);
     * default {@link HashingEmbeddingProvider}. The provider must be thread-safe: requests use it
     * concurrently.
     */
    public Builder embeddings(EmbeddingProvider embeddings) {
      Objects.requireNonNull(embeddings, "embeddings");
      this.embeddings = opened -> embeddings;
      this.ownsEmbeddings = false;
      return this;
    }

    /**
     * Like {@link #embeddings(EmbeddingProvider)}, for a provider that lives in the data directory
     * (a vector cache, say): {@code open} runs once the directory is open and locked, so nothing is
     * created in it before the server is sure to start, and the server owns the result: if it is
     * {@link AutoCloseable} it is closed after requests drain, before the data directory.
     */
    public Builder embeddings(Function<Loci, ? extends EmbeddingProvider> open) {
      Objects.requireNonNull(open, "open");
      this.embeddings = open::apply;
      this.ownsEmbeddings = true;
      return this;
    }

    /** Adds routes beyond {@link #standardRoutes}, built once the data directory is open. */
    public Builder routes(Function<Loci, RouteSet> routes) {
      Objects.requireNonNull(routes, "routes");
      extraRoutes.add((opened, provider) -> routes.apply(opened));
      return this;
    }

    /**
     * Adds routes beyond {@link #standardRoutes} that need the embedding provider the recall routes
     * use (an MCP endpoint's recall tool), built once the data directory is open.
     */
    public Builder routes(BiFunction<Loci, EmbeddingProvider, RouteSet> routes) {
      extraRoutes.add(Objects.requireNonNull(routes, "routes"));
      return this;
    }

    /**
     * Adds pages served beside the API (the web UI), built once the data directory is open with the
     * embedding provider the recall routes use.
     */
    public Builder web(BiFunction<Loci, EmbeddingProvider, dev.loci.server.spi.WebMount> pages) {
      web.add(Objects.requireNonNull(pages, "pages"));
      return this;
    }

    /** Receives one JSON line per request (method, route, status, duration, remote, token id). */
    public Builder accessLog(Consumer<String> accessLog) {
      this.accessLog = Objects.requireNonNull(accessLog, "accessLog");
      return this;
    }

    /**
     * How often the retention sweep erases subject records past their retention (see {@link
     * Subjects#sweep}); default daily, {@link Duration#ZERO} never (then only {@code POST
     * retention/sweep} or {@code loci retention sweep} runs it).
     */
    public Builder retentionSweepEvery(Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException(
            "retentionSweepEvery: expected zero or more, found " + every);
      }
      this.sweepEvery = every;
      return this;
    }

    /**
     * How often the lifecycle sweep records the state changes time caused in every namespace's
     * memories (see {@link MemoryPalace#sweepAll}); default hourly, {@link Duration#ZERO} never
     * (then only {@code POST lifecycle/sweep} or {@code loci lifecycle sweep} runs it).
     */
    public Builder lifecycleSweepEvery(Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException(
            "lifecycleSweepEvery: expected zero or more, found " + every);
      }
      this.lifecycleSweepEvery = every;
      return this;
    }

    /**
     * How often the conflict sweep looks for disagreeing trusted records that write-time detection
     * missed, in every namespace (see {@link GovernedMemory#sweepAll}); default daily (the nightly
     * sweep of the conflict model), {@link Duration#ZERO} never (then only {@code POST
     * conflicts/sweep} or {@code loci conflicts sweep} runs it).
     */
    public Builder conflictSweepEvery(Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException(
            "conflictSweepEvery: expected zero or more, found " + every);
      }
      this.conflictSweepEvery = every;
      return this;
    }

    /**
     * How often the recall graph is checked against every governed memory and entity ({@link
     * GovernedRecall#syncAll}): each governed write already puts its records' nodes and edges in
     * its own journal batch, so this only repairs records written by an instance without the recall
     * layer or by an older version; first run one minute after start, then by default every hour,
     * {@link Duration#ZERO} never. Recall scores them with {@link GovernedScoring}: a superseded or
     * invalid record never outranks its active successor, under the default weights too (it ranks
     * after every current item).
     */
    public Builder governedRecallEvery(Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException(
            "governedRecallEvery: expected zero or more, found " + every);
      }
      this.governedRecallEvery = every;
      return this;
    }

    /** How long {@link #close()} waits for requests in flight; default 30 s. */
    public Builder drain(Duration drain) {
      this.drain = Objects.requireNonNull(drain, "drain");
      return this;
    }

    /**
     * Checks the configuration is safe, opens the data directory and starts listening.
     *
     * @throws ConfigException if the address is not loopback and no credential is configured
     */
    public LociServer start() {
      checkSafeBind();
      Metrics metrics = new Metrics();
      Loci opened = loci.appendListener(metrics::journalAppend).open();
      List<AutoCloseable> owned = new ArrayList<>();
      try {
        EmbeddingProvider provider = embeddings.apply(opened);
        if (ownsEmbeddings && provider instanceof AutoCloseable closeable) {
          owned.add(closeable);
        }
        List<Route> routes = new ArrayList<>(new OpsRoutes(opened, metrics).routes());
        for (RouteSet set : standardRoutes(opened, provider, config.limits())) {
          routes.addAll(set.routes());
          if (set instanceof AutoCloseable background) { // work after a response: first to stop
            owned.add(0, background);
          }
        }
        for (BiFunction<Loci, EmbeddingProvider, RouteSet> f : extraRoutes) {
          RouteSet set = f.apply(opened, provider);
          routes.addAll(set.routes());
          if (set instanceof AutoCloseable background) {
            owned.add(0, background);
          }
        }
        HttpPipeline pipeline = new HttpPipeline(config, routes, accessLog, drain, metrics);
        web.forEach(f -> pipeline.mount(f.apply(opened, provider)));
        Optional<ConfigWatcher> watcher =
            watched.map(f -> ConfigWatcher.start(f, pipeline, reloadEvery));
        try {
          pipeline.start();
        } catch (RuntimeException e) {
          watcher.ifPresent(ConfigWatcher::close);
          throw e;
        }
        if (!sweepEvery.isZero()) {
          owned.add(0, RetentionSweeper.start(Subjects.of(opened), sweepEvery, Clock.systemUTC()));
        }
        if (!lifecycleSweepEvery.isZero()) {
          MemoryPalace palace = MemoryPalace.of(opened, RecallMemory.of(opened, provider));
          owned.add(
              0,
              PeriodicTask.start(
                  "loci-lifecycle-sweep", lifecycleSweepEvery, () -> sweepLifecycle(palace)));
        }
        if (!governedRecallEvery.isZero()) {
          GovernedRecall bridge =
              GovernedRecall.of(
                  GovernedMemory.of(opened),
                  GovernedEntities.of(opened),
                  RecallMemory.of(opened, provider).as("govern-recall"));
          owned.add(
              0,
              PeriodicTask.start(
                  "loci-govern-recall", governedRecallEvery, () -> bridge.syncAll()));
        }
        if (!conflictSweepEvery.isZero()) {
          GovernedMemory governed = GovernedMemory.of(opened).as("conflict-sweep");
          owned.add(
              0,
              PeriodicTask.start(
                  "loci-conflict-sweep", conflictSweepEvery, () -> sweepConflicts(governed)));
        }
        return new LociServer(
            opened, pipeline, List.copyOf(routes), config.host(), watcher, List.copyOf(owned));
      } catch (RuntimeException e) {
        try {
          owned.forEach(LociServer::closeQuietly);
          opened.close();
        } catch (RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
        throw e;
      }
    }

    private static void sweepConflicts(GovernedMemory governed) {
      int opened = governed.sweepAll().size();
      if (opened > 0) {
        System.getLogger("dev.loci.server.govern")
            .log(System.Logger.Level.INFO, "conflict sweep opened " + opened + " conflicts");
      }
    }

    private static void sweepLifecycle(MemoryPalace palace) {
      int changed = palace.sweepAll().stream().mapToInt(r -> r.transitions().size()).sum();
      if (changed > 0) {
        System.getLogger("dev.loci.server.lifecycle")
            .log(System.Logger.Level.INFO, "lifecycle sweep recorded " + changed + " transitions");
      }
    }

    private void checkSafeBind() {
      if (!config.credentials().isEmpty()) {
        return;
      }
      boolean loopback;
      try {
        InetAddress[] all = InetAddress.getAllByName(config.host());
        loopback = all.length > 0;
        for (InetAddress a : all) {
          loopback &= a.isLoopbackAddress();
        }
      } catch (UnknownHostException e) {
        throw new ConfigException("host: cannot resolve '" + config.host() + "'");
      }
      if (!loopback) {
        throw new ConfigException(
            "refusing to listen on "
                + config.host()
                + " with no credential configured: anyone who can reach it could read and write"
                + " every namespace. Create a credential first, for example\n"
                + "  loci token create --role admin --ns '*'\n"
                + "(it is stored hashed in "
                + configHint
                + "), or listen on 127.0.0.1.");
      }
    }
  }
}
