package dev.loci.bench;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.postgres.PostgresJournal;
import dev.loci.postgres.PostgresUrl;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The cluster benchmark ({@code loci bench cluster}): Loci over a PostgreSQL journal against the
 * database it sits on.
 *
 * <ul>
 *   <li>Durable appends per second with 1 and 3 Loci instances over one database (each with its own
 *       data directory, in this process), 8 writers each, against plain {@code INSERT} and commit
 *       of rows of the same shape (sequence, namespace, the journal line) from the same number of
 *       client threads, each on its own connection. The ratio is Loci's overhead over its database.
 *   <li>Cross-server visibility lag: how long after a write returns on one instance another one,
 *       following the journal, can read it (p50, p99).
 *   <li>Catch-up: batches per second a new instance with an empty data directory applies when it
 *       joins.
 * </ul>
 *
 * <p>Each measurement runs in a database of its own, created from the given server's {@code
 * postgres} database and dropped afterwards. Run: {@code loci bench cluster --pg
 * postgresql://postgres@127.0.0.1:5432/postgres}.
 */
public final class ClusterBenchmark {
  private static final Namespace NS = Namespace.of("bench");

  private ClusterBenchmark() {}

  /**
   * What to run.
   *
   * @param admin a URL of the server's maintenance database (where databases are created)
   * @param workDir where the data directories are made
   * @param serverCounts instance counts to measure
   * @param writersPerServer writer threads per instance
   * @param warmup before each measured window
   * @param measure each measured window
   * @param lagSamples writes whose visibility on another instance is timed
   */
  public record Options(
      String admin,
      Path workDir,
      List<Integer> serverCounts,
      int writersPerServer,
      Duration warmup,
      Duration measure,
      int lagSamples) {
    /** Checks presence and ranges. */
    public Options {
      Objects.requireNonNull(admin, "admin");
      Objects.requireNonNull(workDir, "workDir");
      serverCounts = List.copyOf(serverCounts);
      if (serverCounts.isEmpty() || serverCounts.stream().anyMatch(n -> n < 1)) {
        throw new IllegalArgumentException(
            "server counts must be 1 or more, found " + serverCounts);
      }
      if (writersPerServer < 1 || lagSamples < 1) {
        throw new IllegalArgumentException("writers and lag samples must be 1 or more");
      }
    }
  }

  /**
   * One throughput row: Loci with {@code servers} instances, and the plain-insert peer; {@code
   * rounds} sums the instances' journals over the warm-up and the measured time.
   */
  public record Row(
      int servers, int writers, Throughput loci, Throughput peer, PostgresJournal.Rounds rounds) {
    /** Loci's rate over the peer's. */
    public double ratio() {
      return loci.perSecond() / peer.perSecond();
    }
  }

  /**
   * The figures.
   *
   * @param rows durable appends per server count
   * @param lagP50Millis visibility lag, median
   * @param lagP99Millis visibility lag, 99th percentile
   * @param catchUpBatches batches a joining instance applied
   * @param catchUpSeconds how long its open took
   */
  public record Report(
      Machine machine,
      List<Row> rows,
      double lagP50Millis,
      double lagP99Millis,
      long catchUpBatches,
      double catchUpSeconds) {
    /** The report as a Markdown table. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown()).append('\n');
      b.append(
          "| servers | writers | Loci appends/s | plain INSERT+commit/s | Loci / peer | rounds"
              + " written | batches/round | rounds moved | rounds refused |\n");
      b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Row r : rows) {
        PostgresJournal.Rounds n = r.rounds();
        Format.row(
            b,
            Integer.toString(r.servers()),
            Integer.toString(r.writers()),
            Format.rate(r.loci().perSecond()),
            Format.rate(r.peer().perSecond()),
            Format.fixed(r.ratio(), 2) + "x",
            Format.count(n.written()),
            Format.fixed(n.written() == 0 ? 0 : (double) n.batches() / n.written(), 1),
            Format.count(n.moves()),
            Format.count(n.refusals()));
      }
      b.append("(rounds: the instances' journals, warm-up included)\n");
      b.append("\nvisibility lag on another instance: p50 ")
          .append(Format.fixed(lagP50Millis, 1))
          .append(" ms, p99 ")
          .append(Format.fixed(lagP99Millis, 1))
          .append(" ms\n");
      b.append("catch-up of a new instance: ")
          .append(Format.count(catchUpBatches))
          .append(" batches in ")
          .append(Format.fixed(catchUpSeconds, 2))
          .append(" s = ")
          .append(Format.rate(catchUpBatches / catchUpSeconds))
          .append(" batches/s\n");
      return b.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\"machine\": ").append(machine.toJson());
      b.append(", \"appends\": [");
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        b.append(i == 0 ? "" : ", ")
            .append("{\"servers\": ")
            .append(r.servers())
            .append(", \"writers\": ")
            .append(r.writers())
            .append(", \"loci\": ")
            .append(r.loci().toJson())
            .append(", \"plain_insert\": ")
            .append(r.peer().toJson())
            .append(", \"ratio\": ")
            .append(Format.number(r.ratio()))
            .append(", \"rounds\": {\"written\": ")
            .append(r.rounds().written())
            .append(", \"batches\": ")
            .append(r.rounds().batches())
            .append(", \"moved\": ")
            .append(r.rounds().moves())
            .append(", \"refused\": ")
            .append(r.rounds().refusals())
            .append("}}");
      }
      return b.append("], \"lag_ms\": {\"p50\": ")
          .append(Format.number(lagP50Millis))
          .append(", \"p99\": ")
          .append(Format.number(lagP99Millis))
          .append("}, \"catch_up\": {\"batches\": ")
          .append(catchUpBatches)
          .append(", \"seconds\": ")
          .append(Format.number(catchUpSeconds))
          .append("}}\n")
          .toString();
    }
  }

  /** Runs every measurement, with progress on {@code progress}. */
  public static Report run(Options options, PrintStream progress) {
    PostgresUrl admin = PostgresUrl.parse(options.admin());
    List<Row> rows = new ArrayList<>();
    long catchUpBatches = 0;
    double catchUpSeconds = 0;
    for (int servers : options.serverCounts()) {
      int writers = servers * options.writersPerServer();
      Throughput peer;
      try (Scratch db = Scratch.create(admin)) {
        progress.println("plain INSERT+commit, " + writers + " client threads ...");
        peer = plainInserts(db, writers, options);
      }
      try (Scratch db = Scratch.create(admin);
          ScratchDir dirs = ScratchDir.create(options.workDir(), "cluster")) {
        progress.println(
            "Loci over PostgreSQL, " + servers + " instance(s) x " + writers / servers);
        List<Loci> instances = new ArrayList<>();
        List<PostgresJournal> journals = new ArrayList<>();
        List<AutoCloseable> following = new ArrayList<>();
        try {
          for (int s = 0; s < servers; s++) {
            AtomicReference<PostgresJournal> journal = new AtomicReference<>();
            Loci loci = open(db.url, dirs.path().resolve("s" + s), journal);
            instances.add(loci);
            journals.add(journal.get());
            following.add(journal.get().follow(loci::tryCatchUp, Duration.ofSeconds(1)));
          }
          List<ThroughputRun.Writer> ws = new ArrayList<>();
          for (int w = 0; w < writers; w++) {
            Loci loci = instances.get(w % servers);
            ws.add(i -> loci.traces().add(NS, "{\"i\":" + i + "}", List.of("bench")));
          }
          ThroughputRun.Result r =
              ThroughputRun.run("loci", ws, options.warmup(), options.measure());
          rows.add(
              new Row(
                  servers,
                  writers,
                  new Throughput(r.measured(), r.seconds(), r.cpuSeconds()),
                  peer,
                  journals.stream()
                      .map(PostgresJournal::rounds)
                      .reduce(
                          new PostgresJournal.Rounds(0, 0, 0, 0), PostgresJournal.Rounds::plus)));
        } finally {
          for (AutoCloseable f : following) {
            closeQuietly(f);
          }
          instances.forEach(Loci::close);
        }
        progress.println("a new instance joins ...");
        long start = System.nanoTime();
        try (Loci joined = open(db.url, dirs.path().resolve("joined"))) {
          catchUpSeconds = (System.nanoTime() - start) / 1e9;
          catchUpBatches = joined.lastSeq();
        }
      }
    }
    double[] lag;
    try (Scratch db = Scratch.create(admin);
        ScratchDir dirs = ScratchDir.create(options.workDir(), "cluster-lag")) {
      progress.println("visibility lag, " + options.lagSamples() + " writes ...");
      lag = lag(db.url, dirs.path(), options.lagSamples());
    }
    return new Report(
        Machine.describe(options.workDir()), rows, lag[0], lag[1], catchUpBatches, catchUpSeconds);
  }

  private static Loci open(PostgresUrl url, Path dir) {
    return open(url, dir, new AtomicReference<>());
  }

  /** Opens an instance over {@code url}, telling {@code journal} the journal it opened. */
  private static Loci open(PostgresUrl url, Path dir, AtomicReference<PostgresJournal> journal) {
    return Loci.builder()
        .dataDir(dir)
        .snapshotAfter(0)
        .journal(
            d -> {
              journal.set(PostgresJournal.open(url));
              return journal.get();
            })
        .open();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop following the journal", e);
    }
  }

  private static Throughput plainInserts(Scratch db, int writers, Options options) {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE plain_batch (seq BIGSERIAL PRIMARY KEY, ns TEXT NOT NULL, line BYTEA NOT"
              + " NULL, written_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the peer's table: " + e.getMessage(), e);
    }
    List<Connection> connections = new ArrayList<>();
    try {
      List<ThroughputRun.Writer> ws = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        Connection c = db.connect();
        connections.add(c);
        PreparedStatement insert =
            c.prepareStatement("INSERT INTO plain_batch (ns, line) VALUES (?, ?)");
        ws.add(
            i -> {
              insert.setString(1, NS.value());
              insert.setBytes(2, line(i));
              insert.executeUpdate(); // autocommit: one durable commit per row
            });
      }
      ThroughputRun.Result r = ThroughputRun.run("plain", ws, options.warmup(), options.measure());
      return new Throughput(r.measured(), r.seconds(), r.cpuSeconds());
    } catch (SQLException e) {
      throw new IllegalStateException("peer failed: " + e.getMessage(), e);
    } finally {
      for (Connection c : connections) {
        try {
          c.close();
        } catch (SQLException ignored) {
          // closing a scratch connection
        }
      }
    }
  }

  /** A row as long as a Loci trace batch's line, so both sides move the same bytes. */
  private static byte[] line(long i) {
    return ("{\"seq\":"
            + i
            + ",\"ts\":\"2026-11-24T10:00:00.000000Z\",\"ns\":\"bench\",\"actor\":\"local\","
            + "\"events\":[{\"type\":\"trace.added\",\"data\":{\"uid\":\""
            + UUID.randomUUID()
            + "\",\"content\":{\"i\":"
            + i
            + "},\"tags\":[\"bench\"]}}],\"crc32c\":\"00000000\"}\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Writes on one instance and times until another, following the journal, reads each write. */
  private static double[] lag(PostgresUrl url, Path dir, int samples) {
    AtomicReference<PostgresJournal> followed = new AtomicReference<>();
    try (Loci writer = open(url, dir.resolve("writer"));
        Loci reader = open(url, dir.resolve("reader"), followed);
        AutoCloseable following =
            followed.get().follow(reader::tryCatchUp, Duration.ofSeconds(1))) {
      long[] nanos = new long[samples];
      for (int i = 0; i < samples; i++) {
        String uid = writer.traces().add(NS, "{\"i\":" + i + "}", List.of("lag")).uid();
        long start = System.nanoTime();
        while (reader.traces().find(NS, uid).isEmpty()) {
          Thread.onSpinWait();
          if (System.nanoTime() - start > Duration.ofSeconds(30).toNanos()) {
            throw new IllegalStateException("write " + uid + " not visible after 30 s");
          }
        }
        nanos[i] = System.nanoTime() - start;
        Thread.sleep(5);
      }
      Arrays.sort(nanos);
      return new double[] {
        nanos[(int) Math.floor(0.50 * (samples - 1))] / 1e6,
        nanos[(int) Math.floor(0.99 * (samples - 1))] / 1e6
      };
    } catch (Exception e) {
      throw new IllegalStateException("lag measurement failed: " + e.getMessage(), e);
    }
  }

  /** A database of its own for one measurement, dropped on close. */
  private static final class Scratch implements AutoCloseable {
    final PostgresUrl admin;
    final String name;
    final PostgresUrl url;

    private Scratch(PostgresUrl admin, String name) {
      this.admin = admin;
      this.name = name;
      int slash = admin.jdbcUrl().lastIndexOf('/');
      int query = admin.jdbcUrl().indexOf('?', slash);
      String jdbc =
          admin.jdbcUrl().substring(0, slash + 1)
              + name
              + (query < 0 ? "" : admin.jdbcUrl().substring(query));
      this.url = new PostgresUrl(jdbc, admin.user(), admin.password());
    }

    static Scratch create(PostgresUrl admin) {
      String name = "loci_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
      try (Connection c = connect(admin);
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + name.toLowerCase(Locale.ROOT));
      } catch (SQLException e) {
        throw new IllegalStateException(
            "cannot create a scratch database on " + admin + ": " + e.getMessage(), e);
      }
      return new Scratch(admin, name);
    }

    Connection connect() throws SQLException {
      return connect(url);
    }

    private static Connection connect(PostgresUrl u) throws SQLException {
      return DriverManager.getConnection(
          u.jdbcUrl(), u.user().orElse(null), u.password().orElse(null));
    }

    @Override
    public void close() {
      try (Connection c = connect(admin);
          Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      } catch (SQLException e) {
        throw new IllegalStateException("cannot drop scratch database " + name, e);
      }
    }
  }
}
