package dev.loci;

import dev.loci.internal.Adr004Format;
import dev.loci.internal.Engine;
import dev.loci.internal.Json;
import dev.loci.internal.Timestamps;
import dev.loci.internal.TraceLayer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The trace store: versioned, opaque JSON memories with the semantics of ADR-004 (Add,
 * AddIdempotent, Update, Revise, Retire, Get, History, Search).
 *
 * <p>Every write is validated against current state, journaled and durable before it returns; a
 * rejected write throws and changes nothing. Returned traces are immutable. Thread-safe.
 */
public final class Traces {
  private static final int IMPORT_CHUNK = 1000;

  private final Engine engine;
  private final TraceLayer layer;
  private final String actor;
  private final Clock clock;
  private final LegalReads legalReads;
  private final Redaction redaction;

  Traces(
      Engine engine,
      TraceLayer layer,
      String actor,
      Clock clock,
      LegalReads legalReads,
      Redaction redaction) {
    this.engine = engine;
    this.layer = layer;
    this.actor = actor;
    this.clock = clock;
    this.legalReads = legalReads;
    this.redaction = redaction;
  }

  /** The same store, recording {@code actor} as the author of its writes in the journal. */
  public Traces as(String actor) {
    Objects.requireNonNull(actor, "actor");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    return new Traces(engine, layer, actor, clock, legalReads, redaction);
  }

  /**
   * Adds a new trace with a fresh UUID v7 and replay count 1.
   *
   * @param content one JSON value
   * @throws InvalidRequestException naming {@code content} or {@code tags}
   */
  public Trace add(Namespace ns, String content, List<String> tags) {
    TraceLayer.Draft draft = TraceLayer.Draft.of(redaction.traceContent(ns, content), tags);
    return engine.execute(ns, actor, ctx -> layer.decideAdd(ctx, ns, draft));
  }

  /**
   * Adds a new trace under a caller-chosen uid that must not be taken yet, with replay count 1.
   * Unlike {@link #addIdempotent}, an existing uid is an error, not a replay.
   *
   * @throws InvalidRequestException naming {@code uid}, {@code content} or {@code tags}
   * @throws ConflictException if a trace with {@code uid} exists in {@code ns}
   */
  public Trace addNew(Namespace ns, String uid, String content, List<String> tags) {
    TraceLayer.checkUid(uid, "uid");
    TraceLayer.Draft draft = TraceLayer.Draft.of(redaction.traceContent(ns, content), tags);
    return engine.execute(ns, actor, ctx -> layer.decideAddNew(ctx, ns, uid, draft));
  }

  /**
   * Adds a trace under a caller-chosen uid, or, if that uid exists, raises its replay count and
   * keeps its original content.
   *
   * @throws InvalidRequestException naming {@code uid}, {@code content} or {@code tags}
   */
  public Trace addIdempotent(Namespace ns, String uid, String content, List<String> tags) {
    TraceLayer.checkUid(uid, "uid");
    TraceLayer.Draft draft = TraceLayer.Draft.of(redaction.traceContent(ns, content), tags);
    return engine.execute(ns, actor, ctx -> layer.decideAddIdempotent(ctx, ns, uid, draft));
  }

  /**
   * Replaces a trace's content in place: same uid, {@code updated_at} bumped. Not a revision.
   *
   * @throws NotFoundException naming {@code uid}
   */
  public Trace update(Namespace ns, String uid, String content) {
    return update(ns, uid, content, Optional.empty());
  }

  /**
   * Like {@link #update(Namespace, String, String)}, only if the trace is still at {@code
   * expectedVersion}: the check and the write are one step, so a concurrent change is never
   * overwritten unseen.
   *
   * @param expectedVersion a {@link Trace#version()} the caller read earlier
   * @throws NotFoundException naming {@code uid}
   * @throws StaleVersionException if the trace changed since that version
   */
  public Trace update(Namespace ns, String uid, String content, String expectedVersion) {
    return update(ns, uid, content, Optional.of(expectedVersion));
  }

  private Trace update(Namespace ns, String uid, String content, Optional<String> expected) {
    String json = Json.compactValue(redaction.traceContent(ns, content), "content");
    return engine.execute(ns, actor, ctx -> layer.decideUpdate(ctx, ns, uid, json, expected));
  }

  /**
   * Records a new belief as a new trace linked to {@code predecessorUid}, which stays readable
   * through {@link #history}. Retired predecessors may be revised.
   *
   * @throws NotFoundException naming {@code predecessor_uid}
   */
  public Trace revise(Namespace ns, String predecessorUid, String content, List<String> tags) {
    return revise(ns, predecessorUid, content, tags, Optional.empty());
  }

  /**
   * Like {@link #revise(Namespace, String, String, List)}, only if the predecessor is still at
   * {@code expectedVersion}; the check and the write are one step.
   *
   * @param expectedVersion a {@link Trace#version()} of the predecessor the caller read earlier
   * @throws NotFoundException naming {@code predecessor_uid}
   * @throws StaleVersionException if the predecessor changed since that version
   */
  public Trace revise(
      Namespace ns,
      String predecessorUid,
      String content,
      List<String> tags,
      String expectedVersion) {
    return revise(ns, predecessorUid, content, tags, Optional.of(expectedVersion));
  }

  private Trace revise(
      Namespace ns,
      String predecessorUid,
      String content,
      List<String> tags,
      Optional<String> expected) {
    TraceLayer.Draft draft = TraceLayer.Draft.of(redaction.traceContent(ns, content), tags);
    return engine.execute(
        ns, actor, ctx -> layer.decideRevise(ctx, ns, predecessorUid, draft, expected));
  }

  /**
   * Hides a trace from search; {@link #get} and {@link #history} still return it. Retiring a
   * retired trace changes nothing.
   *
   * @throws NotFoundException naming {@code uid}
   */
  public Trace retire(Namespace ns, String uid) {
    return engine.execute(ns, actor, ctx -> layer.decideRetire(ns, uid, Optional.empty()));
  }

  /**
   * Like {@link #retire(Namespace, String)}, only if the trace is still at {@code expectedVersion};
   * the check and the write are one step.
   *
   * @param expectedVersion a {@link Trace#version()} the caller read earlier
   * @throws NotFoundException naming {@code uid}
   * @throws StaleVersionException if the trace changed since that version
   */
  public Trace retire(Namespace ns, String uid, String expectedVersion) {
    Optional<String> expected = Optional.of(expectedVersion);
    return engine.execute(ns, actor, ctx -> layer.decideRetire(ns, uid, expected));
  }

  /**
   * Returns a trace, retired or not.
   *
   * @throws NotFoundException naming {@code uid}
   */
  public Trace get(Namespace ns, String uid) {
    return engine.read(() -> layer.require(ns, uid, "uid"));
  }

  /** Returns a trace, retired or not, if it exists. */
  public Optional<Trace> find(Namespace ns, String uid) {
    return engine.read(() -> layer.find(ns, uid));
  }

  /**
   * Walks the revision chain back: {@code [uid, its predecessor, ...]}. Stops cleanly where a
   * predecessor is missing. Superseded versions may carry personal data, so the legal-tier
   * capability is required and the read is recorded with its holder ({@link LegalReads}) before the
   * chain is returned.
   *
   * @throws NotFoundException naming {@code uid}
   * @throws CorruptDataException if the chain loops (only possible with hand-edited data)
   * @throws StorageException if the read cannot be recorded (then nothing is returned)
   */
  public List<Trace> history(Namespace ns, String uid, LegalCapability legal) {
    Objects.requireNonNull(legal, "history requires the legal-tier capability");
    List<Trace> chain = engine.read(() -> layer.history(ns, uid));
    legalReads.record(ns, legal, "trace.history", chain.stream().map(Trace::uid).toList());
    return chain;
  }

  /** Searches; retired traces only with {@link TraceQuery#includeRetired()}. */
  public Page<Trace> search(TraceQuery query) {
    return engine.read(() -> layer.search(query));
  }

  /** Counts traces in {@code scope}, retired ones included. */
  public long count(NamespaceScope scope) {
    return engine.read(() -> layer.count(scope));
  }

  /**
   * How many traces one namespace holds, retired ones included, and when its newest was created.
   *
   * @param namespace the namespace
   * @param traces its traces, at least 1
   * @param newest the creation time of its newest trace
   */
  public record NamespaceCount(Namespace namespace, long traces, java.time.Instant newest) {
    /** Checks presence. */
    public NamespaceCount {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(newest, "newest");
    }
  }

  /** Every namespace that holds traces, sorted by name; for browsing (the web UI). */
  public List<NamespaceCount> namespaces() {
    return engine.read(layer::namespaceCounts);
  }

  /** Counts every trace in every namespace, retired ones included; for operators' metrics. */
  public long total() {
    return engine.read(layer::total);
  }

  /**
   * Imports a log of the Go trace store ({@code adr004-jsonl}) into {@code ns}. Each line is one
   * operation; lines that do not parse or do not apply (an update of an unknown uid, an add of a
   * uid that exists) are skipped and reported. Operations are appended in batches of 1,000.
   */
  public ImportReport importAdr004(Namespace ns, BufferedReader in) {
    java.time.Instant importTime = Timestamps.truncate(clock.instant());
    long lines = 0;
    long applied = 0;
    List<ImportReport.Skipped> skipped = new ArrayList<>();
    List<TraceLayer.ImportOp> chunk = new ArrayList<>();
    try {
      String line;
      long lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        lines++;
        Adr004Format.Parsed parsed = Adr004Format.parse(lineNo, line, ns, importTime);
        if (parsed.op() == null) {
          skipped.add(new ImportReport.Skipped(lineNo, parsed.error()));
          continue;
        }
        chunk.add(parsed.op());
        if (chunk.size() == IMPORT_CHUNK) {
          applied += importChunk(ns, chunk, skipped);
          chunk.clear();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!chunk.isEmpty()) {
      applied += importChunk(ns, chunk, skipped);
    }
    skipped.sort(java.util.Comparator.comparingLong(ImportReport.Skipped::line));
    return new ImportReport(lines, applied, skipped);
  }

  private long importChunk(
      Namespace ns, List<TraceLayer.ImportOp> chunk, List<ImportReport.Skipped> skipped) {
    List<TraceLayer.ImportOp> ops = List.copyOf(chunk);
    TraceLayer.ImportDecision d = engine.execute(ns, actor, ctx -> layer.decideImport(ns, ops));
    d.skipped().forEach((line, reason) -> skipped.add(new ImportReport.Skipped(line, reason)));
    return d.applied();
  }

  /**
   * Writes every trace of {@code ns}, retired ones included, in the Go store's log format: one
   * {@code add} (or {@code revise}) line per trace holding its full current state, in creation
   * order. Returns how many traces were written.
   */
  public long exportAdr004(Namespace ns, Writer out) {
    List<Trace> all = engine.read(() -> layer.all(ns));
    try {
      for (Trace t : all) {
        Adr004Format.write(t, out);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all.size();
  }
}
