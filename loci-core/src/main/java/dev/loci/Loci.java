package dev.loci;

import dev.loci.internal.AuditLayer;
import dev.loci.internal.DataDirLock;
import dev.loci.internal.Directories;
import dev.loci.internal.Engine;
import dev.loci.internal.FileJournal;
import dev.loci.internal.SnapshotStore;
import dev.loci.internal.TraceLayer;
import dev.loci.spi.AppendListener;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.Journal;
import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An open Loci data directory: the entry point of the embedded engine.
 *
 * <pre>{@code
 * try (Loci loci = Loci.open(Path.of("loci-data"))) {
 *   Namespace ns = Namespace.of("acme.alice");
 *   Trace t = loci.traces().add(ns, "{\"fact\":\"prefers tea\"}", List.of("preference"));
 *   loci.traces().revise(ns, t.uid(), "{\"fact\":\"prefers green tea\"}", List.of("preference"));
 * }
 * }</pre>
 *
 * <p>On disk: {@code journal/} (the source of truth), {@code snapshots/}, {@code index/} (derived
 * indexes that layers keep, each recording the journal sequence it reflects; always safe to delete)
 * and a {@code lock} file that keeps a second instance out. Opening restores the newest valid
 * snapshot and replays the journal after it; damage found on the way is repaired where it is a torn
 * tail, skipped and reported otherwise ({@link #openDamage()}), and never stops the open.
 *
 * <p>Thread-safe. Close it to release the directory; closing waits for writes in progress.
 */
public final class Loci implements AutoCloseable {
  /** The data directory used when none is given. */
  public static final Path DEFAULT_DATA_DIR = Path.of("loci-data");

  private final Path dataDir;
  private final DataDirLock lock;
  private final Engine engine;
  private final Traces traces;
  private final List<Layer> layers;
  private final String actor;
  private final LegalReads legalReads;
  private final long snapshotAfter;
  private final long snapshotAfterEvents;

  private final Clock clock;

  private Loci(Builder b, DataDirLock lock, Engine engine, List<Layer> layers) {
    this.dataDir = b.dataDir;
    this.lock = lock;
    this.engine = engine;
    this.layers = layers;
    this.actor = b.actor;
    this.legalReads = new LegalReads(engine, layer(AuditLayer.class), b.actor);
    this.traces =
        new Traces(engine, layer(TraceLayer.class), b.actor, b.clock, legalReads, redaction());
    this.snapshotAfter = b.snapshotAfter;
    this.snapshotAfterEvents = b.snapshotAfterEvents;
    this.clock = b.clock;
  }

  /** The clock that timestamps this instance's commands; layers read "now" from it too. */
  public Clock clock() {
    return clock;
  }

  /** Opens {@code dataDir} with default settings, creating it if missing. */
  public static Loci open(Path dataDir) {
    return builder().dataDir(dataDir).open();
  }

  /** Starts configuring an instance. */
  public static Builder builder() {
    return new Builder();
  }

  /** The trace store. */
  public Traces traces() {
    return traces;
  }

  /** The record of reads made under the legal-tier capability. */
  public LegalReads legalReads() {
    return legalReads;
  }

  /**
   * The layer of type {@code type}, for a layer module's facade (for example {@code
   * PathwayMemory.of(loci)}). Part of the SPI.
   *
   * @throws IllegalStateException if no such layer was registered
   */
  public <L extends Layer> L layer(Class<L> type) {
    for (Layer l : layers) {
      if (type.isInstance(l)) {
        return type.cast(l);
      }
    }
    throw new IllegalStateException(
        "no " + type.getName() + " layer; is its module on the class path?");
  }

  /** The engine's command interface, for a layer module's facade. Part of the SPI. */
  public CommandExecutor executor() {
    return engine;
  }

  /**
   * Erases records for the subject layer: with writes stopped, rewrites the journal through each
   * holding layer's {@link dev.loci.spi.SubjectRecords#scrub}, erases them from state and files,
   * and replaces the snapshots. Idempotent. Part of the SPI.
   *
   * @param idsByLayer record ids, by the name of the layer that holds them
   * @return how many journal batches were rewritten
   */
  public long eraseRecords(java.util.Map<String, java.util.Set<String>> idsByLayer) {
    return engine.eraseRecords(idsByLayer);
  }

  /**
   * Erases records for the subject layer over a journal that other servers share (PostgreSQL): in
   * one atomic step of the journal, with every server's writes waiting, rewrites the batches that
   * hold the records through each holding layer's {@link dev.loci.spi.SubjectRecords#scrub} and
   * appends the batch {@code record} decides (an {@link dev.loci.spi.ErasingEvents erasing event});
   * every server, this one first, erases the records from its state and files and replaces its
   * snapshots when it applies that batch. Part of the SPI.
   *
   * @param idsByLayer record keys, by the name of the layer that holds them
   * @param record decides the erasure's event, against the state caught up with every server's
   *     batches; no event if the erasure is already recorded
   * @return how many journal batches were rewritten
   */
  public <R> long eraseShared(
      java.util.Map<String, java.util.Set<String>> idsByLayer,
      Namespace namespace,
      dev.loci.spi.Command<R> record) {
    return engine.eraseShared(idsByLayer, namespace, actor, record);
  }

  /** How namespaces redact personal data from trace content and memory nodes (off by default). */
  public Redaction redaction() {
    return new Redaction(engine, layersOf(dev.loci.spi.ContentRedaction.class));
  }

  /** The check every boundary that would send content off the machine must pass. */
  public Egress egress() {
    return new Egress(engine, layersOf(dev.loci.spi.EgressPolicy.class));
  }

  /** The layers that are also {@code role}, in order. */
  private <T> List<T> layersOf(Class<T> role) {
    return layers.stream().filter(role::isInstance).map(role::cast).toList();
  }

  /** The actor recorded as the author of writes made through this instance's facades. */
  public String actor() {
    return actor;
  }

  /** The data directory. */
  public Path dataDir() {
    return dataDir;
  }

  /** Damage found while opening: a repaired torn tail, skipped lines, bad snapshots. */
  public List<Damage> openDamage() {
    return engine.openDamage();
  }

  /** The sequence number of the last batch applied. */
  public long lastSeq() {
    return engine.appliedSeq();
  }

  /**
   * Why this instance cannot take writes right now, if it cannot (a full disk, a PostgreSQL journal
   * whose database is unreachable, writes stopped after a failed fsync); reads are served from the
   * last applied state meanwhile, and writes resume without a reopen when the journal can take them
   * again.
   */
  public Optional<String> unavailable() {
    return engine.unavailable();
  }

  /**
   * Takes writes again after a journal failure stopped them, where that can be done exactly (what
   * is not durable was never acknowledged and is cut off); returns why writes are still refused, if
   * they are. Writes also try this on their own, at most once a second.
   */
  public Optional<String> resume() {
    return engine.resume();
  }

  /**
   * The last sequence number known to be in a journal shared with other servers (a PostgreSQL
   * journal), so that {@code sharedHead - lastSeq()} is how far this instance lags behind; empty
   * for a file journal, which no one else writes.
   */
  public OptionalLong sharedHead() {
    return engine.sharedHead();
  }

  /**
   * Applies the batches other servers appended to a shared journal (a PostgreSQL journal) since the
   * last one this instance applied, so its reads see them; returns how many. A file journal has no
   * other writer: nothing to apply. Thread-safe; writes wait while it applies.
   *
   * @throws StorageException if the journal cannot be read
   */
  public int catchUp() {
    return engine.catchUp();
  }

  /**
   * Applies what {@link #catchUp()} would, unless writes are in progress on this instance (they
   * catch up before deciding); then returns at once with -1. What a follower of a shared journal
   * calls, so that it never queues behind the writers it would only slow down.
   */
  public int tryCatchUp() {
    return engine.tryCatchUp();
  }

  /** Writes a snapshot of the current state and returns the sequence number it covers. */
  public long snapshot() {
    return engine.snapshot();
  }

  /**
   * Writes a snapshot, then deletes the journal segments and older snapshots it makes redundant.
   * Skipped damaged lines in deleted segments go with them.
   */
  public CompactReport compact() {
    long[] r = engine.compact();
    return new CompactReport(r[0], (int) r[1]);
  }

  /**
   * What {@link #compact()} did.
   *
   * @param snapshotSeq the sequence number the new snapshot covers
   * @param segmentsDeleted how many journal segments were deleted
   */
  public record CompactReport(long snapshotSeq, int segmentsDeleted) {}

  /**
   * Checks every journal segment and snapshot of a data directory without opening it for writing,
   * so it can run beside a live instance.
   *
   * @throws NotFoundException naming {@code data} if there is no journal there
   */
  public static VerifyReport verify(Path dataDir) {
    Path journalDir = dataDir.resolve("journal");
    if (!Files.isDirectory(journalDir)) {
      throw new NotFoundException("data", "no Loci journal in " + dataDir);
    }
    List<Damage> damage = new ArrayList<>();
    long[] batches = {0};
    try {
      List<Path> segments = FileJournal.segments(journalDir);
      List<Path> snapshots = SnapshotStore.list(dataDir.resolve("snapshots"));
      long newestGoodSnapshot = 0;
      for (Path s : snapshots) {
        try {
          newestGoodSnapshot = Math.max(newestGoodSnapshot, SnapshotStore.check(s).seq());
        } catch (CorruptJournalException e) {
          damage.add(
              new Damage(
                  Damage.Kind.BAD_SNAPSHOT,
                  s,
                  e.offset(),
                  OptionalLong.of(SnapshotStore.seqOf(s)),
                  e.detail()));
        } catch (StorageException e) {
          damage.add(
              new Damage(
                  Damage.Kind.BAD_SNAPSHOT,
                  s,
                  -1,
                  OptionalLong.of(SnapshotStore.seqOf(s)),
                  e.getMessage()));
        }
      }
      // every line of every segment is checked; batches a valid snapshot covers need not be there
      FileJournal.read(journalDir, newestGoodSnapshot + 1, true, e -> batches[0]++, damage::add);
      return new VerifyReport(segments.size(), batches[0], snapshots.size(), damage);
    } catch (IOException e) {
      throw new StorageException("cannot read " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Closes the instance: waits for writes in progress, writes a snapshot if enough batches were
   * appended, or enough events applied, since the last one (see {@link
   * Builder#snapshotAfterEvents}), closes the journal and releases the directory.
   */
  @Override
  public void close() {
    LociException failure = null;
    try {
      if (snapshotAfter > 0
          && (engine.appliedSeq() - engine.snapshotSeq() >= snapshotAfter
              || engine.eventsSinceSnapshot() >= snapshotAfterEvents)) {
        engine.snapshot();
      }
    } catch (LociException e) {
      failure = e;
    }
    try {
      engine.close();
    } catch (LociException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    lock.close();
    if (failure != null) {
      throw failure;
    }
  }

  /** Configures and opens a {@link Loci}; not thread-safe, settings are copied on open. */
  public static final class Builder {
    private Path dataDir = DEFAULT_DATA_DIR;
    private Durability durability = Durability.always();
    private long segmentBytes = FileJournal.DEFAULT_SEGMENT_BYTES;
    private String actor = "local";
    private Clock clock = Clock.systemUTC();
    private long snapshotAfter = 10_000;
    private long snapshotAfterEvents = 100_000;
    private boolean createIfMissing = true;
    private boolean discoverLayers = true;
    private final List<Supplier<Layer>> extraLayers = new ArrayList<>();
    private AppendListener appendListener = AppendListener.NONE;
    private Optional<Function<Path, Journal>> journalOpener = Optional.empty();

    private Builder() {}

    /**
     * Opens the journal with {@code opener} (given the data directory) instead of the file journal
     * under {@code journal/}: how a PostgreSQL journal plugs in. Snapshots and indexes stay in the
     * data directory. The journal is closed with the {@link Loci}. Part of the SPI.
     */
    public Builder journal(Function<Path, Journal> opener) {
      this.journalOpener = Optional.of(Objects.requireNonNull(opener, "opener"));
      return this;
    }

    /**
     * Adds a layer made by {@code factory} on open, beside the trace store and the layers found
     * through {@link LayerProvider}. Part of the SPI.
     */
    public Builder layer(Supplier<Layer> factory) {
      extraLayers.add(Objects.requireNonNull(factory, "factory"));
      return this;
    }

    /**
     * Whether {@link #open()} adds the layers of every {@link LayerProvider} on the class path (the
     * default). Turn it off to open with only the trace store and the layers given to {@link
     * #layer}.
     */
    public Builder discoverLayers(boolean discover) {
      this.discoverLayers = discover;
      return this;
    }

    /**
     * Whether {@link #open()} creates a missing data directory (the default) or reports it, as a
     * read-only tool should, so that a mistyped path is not mistaken for an empty store.
     */
    public Builder createIfMissing(boolean create) {
      this.createIfMissing = create;
      return this;
    }

    /** Told how long each group of journal appends took, for metrics; default none. */
    public Builder appendListener(AppendListener listener) {
      this.appendListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The data directory; default {@code ./loci-data}. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
      return this;
    }

    /** When a write counts as done; default {@link Durability#always()}. */
    public Builder durability(Durability durability) {
      this.durability = Objects.requireNonNull(durability, "durability");
      return this;
    }

    /** Journal segment size before rolling; default 64 MiB. */
    public Builder segmentBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException(
            "segment size must be at least 1024 bytes, found " + bytes);
      }
      this.segmentBytes = bytes;
      return this;
    }

    /** The actor recorded in the journal for writes; default {@code local}. */
    public Builder actor(String actor) {
      Objects.requireNonNull(actor, "actor");
      if (actor.isBlank()) {
        throw new IllegalArgumentException("actor must not be blank");
      }
      this.actor = actor;
      return this;
    }

    /** The clock that timestamps commands; default the system UTC clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Write a snapshot on close once this many batches were appended since the last one, so the
     * next open replays less; 0 turns it off. Default 10,000.
     */
    public Builder snapshotAfter(long batches) {
      if (batches < 0) {
        throw new IllegalArgumentException("snapshotAfter must be 0 or more, found " + batches);
      }
      this.snapshotAfter = batches;
      return this;
    }

    /**
     * Also write a snapshot on close once this many events were applied since the last one
     * (appended, or replayed on open), whatever the batch count: a bulk ingest writes few batches
     * of many events each, and without this a reopen would replay all of them. Only with {@link
     * #snapshotAfter} above 0. Default 100,000 (about a second of replay).
     */
    public Builder snapshotAfterEvents(long events) {
      if (events < 1) {
        throw new IllegalArgumentException(
            "snapshotAfterEvents must be 1 or more, found " + events);
      }
      this.snapshotAfterEvents = events;
      return this;
    }

    /**
     * Opens the data directory, creating it if missing.
     *
     * @throws StorageException if the directory is locked by another instance or unreadable
     * @throws NotFoundException naming {@code data} if the directory holds no journal and {@link
     *     #createIfMissing(boolean)} is off
     */
    public Loci open() {
      if (!createIfMissing
          && journalOpener.isEmpty()
          && !Files.isDirectory(dataDir.resolve("journal"))) {
        throw new NotFoundException(
            "data", "no Loci data directory at " + dataDir + " (nothing has been stored there)");
      }
      try {
        Directories.create(dataDir);
      } catch (IOException e) {
        throw new StorageException(
            "cannot create data directory " + dataDir + ": " + e.getMessage(), e);
      }
      DataDirLock lock = DataDirLock.acquire(dataDir);
      Journal journal = null;
      List<Layer> layers = List.of();
      try {
        List<Damage> openDamage = List.of();
        if (journalOpener.isPresent()) {
          journal = journalOpener.get().apply(dataDir);
        } else {
          FileJournal files =
              FileJournal.open(dataDir.resolve("journal"), durability, segmentBytes);
          openDamage = files.openDamage();
          journal = files;
        }
        SnapshotStore snapshots = SnapshotStore.open(dataDir.resolve("snapshots"));
        List<Layer> all = new ArrayList<>();
        all.add(new TraceLayer());
        all.add(new AuditLayer());
        if (discoverLayers) {
          ServiceLoader.load(LayerProvider.class).forEach(p -> all.add(p.create()));
        }
        extraLayers.forEach(f -> all.add(f.get()));
        for (Layer l : all) {
          l.attach(dataDir);
        }
        layers = all;
        Engine engine = Engine.open(journal, Optional.of(snapshots), all, clock, openDamage);
        engine.listen(appendListener);
        Loci loci = new Loci(this, lock, engine, List.copyOf(all));
        try {
          for (Layer l : all) {
            l.started(loci);
          }
        } catch (RuntimeException e) {
          try {
            loci.close();
          } catch (RuntimeException cleanup) {
            e.addSuppressed(cleanup);
          }
          throw e;
        }
        return loci;
      } catch (RuntimeException e) {
        for (Layer l : layers) {
          try {
            l.close(-1);
          } catch (RuntimeException cleanup) {
            e.addSuppressed(cleanup);
          }
        }
        if (journal != null) {
          try {
            journal.close();
          } catch (RuntimeException cleanup) {
            e.addSuppressed(cleanup);
          }
        }
        lock.close();
        throw e;
      }
    }
  }
}
