package dev.loci.pathway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.LegalReads;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.StorageException;
import dev.loci.pathway.internal.PathwayJson;
import dev.loci.pathway.internal.PathwayLayer;
import dev.loci.pathway.internal.Redactions;
import dev.loci.pathway.internal.RustStateFormat;
import dev.loci.spi.CommandExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Pathway memory, Pathway Memory Specification v1: insert, revise, record_replay with the probation
 * gate, query_for_hotswap, query_by_vec, list_versions, and the Rust {@code state.json} format.
 *
 * <pre>{@code
 * PathwayMemory pathways = PathwayMemory.of(loci);
 * Namespace ns = Namespace.of("acme.scrum");
 * PathwayTrace t = pathways.insert(ns,
 *     PathwayTrace.builder("scrum_review", "crates/queryd/src/service.rs")
 *         .signalClass("LOOPING").finalVerdict("accepted")).trace();
 * pathways.recordReplay(ns, t.traceUid(), true);
 * pathways.queryForHotswap(NamespaceScope.exactly(ns), "scrum_review", "crates/queryd/x.rs",
 *     Optional.of("LOOPING"));
 * }</pre>
 *
 * <p>Every write is validated against current state, journaled and durable before it returns; a
 * rejected write throws and changes nothing. Before a trace is stored, {@code reducer_summary} and
 * {@code final_verdict} are redacted by the namespace's {@link RedactionPolicy} (on by default).
 * Queries return head versions of pathways that are not retired unless asked otherwise ({@code
 * includeHistory}, {@code includeRetired}). Returned traces are immutable. Thread-safe.
 */
public final class PathwayMemory {
  /** The default {@code k} of {@code query_for_hotswap} (spec section 6.2). */
  public static final int HOTSWAP_K = 5;

  /** The default {@code k} of {@code query_by_vec} (spec section 6.2). */
  public static final int SIMILAR_K = 10;

  /** The largest {@code k} a query accepts. */
  public static final int MAX_K = 1000;

  private static final int IMPORT_CHUNK = 1000;

  /** Fields Loci assigns on insert, which an insert's JSON must not carry. */
  private static final Set<String> ASSIGNED =
      Set.of(
          "pathway_id",
          "trace_uid",
          "version",
          "parent_trace_uid",
          "superseded_at",
          "superseded_by_trace_uid",
          "created_at",
          "pathway_vec",
          "replay_count",
          "replays_succeeded",
          "retired",
          "legacy");

  private final CommandExecutor engine;
  private final PathwayLayer layer;
  private final String actor;
  private final LegalReads legalReads;

  private PathwayMemory(
      CommandExecutor engine, PathwayLayer layer, String actor, LegalReads legalReads) {
    this.engine = engine;
    this.layer = layer;
    this.actor = actor;
    this.legalReads = legalReads;
  }

  /**
   * The pathway memory of an open instance.
   *
   * @throws IllegalStateException if the instance was opened without the pathway layer
   */
  public static PathwayMemory of(Loci loci) {
    return new PathwayMemory(
        loci.executor(), loci.layer(PathwayLayer.class), loci.actor(), loci.legalReads());
  }

  /** The same memory, recording {@code actor} as the author of its writes in the journal. */
  public PathwayMemory as(String actor) {
    Objects.requireNonNull(actor, "actor");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    return new PathwayMemory(engine, layer, actor, legalReads);
  }

  // ---------------------------------------------------------------- writes

  /**
   * Inserts a trace (spec section 5.1). The draft supplies the caller's fields; Loci assigns {@code
   * trace_uid} (UUID v7), {@code version} 1, {@code created_at}, {@code pathway_id}, {@code
   * pathway_vec}, zero counters and {@code retired} (true only if the pathway is already retired),
   * and ignores any values the draft holds for them.
   *
   * @throws InvalidRequestException naming the field (an empty {@code task_class}, for one)
   */
  public PathwayWrite insert(Namespace ns, PathwayTrace.Builder draft) {
    PathwayTrace template = draft.build();
    Redactions redacted = redactedOutsideTheWritePath(ns, template);
    return engine.execute(ns, actor, ctx -> layer.decideInsert(ctx, ns, template, redacted));
  }

  /**
   * Inserts a trace given as a JSON object of the caller's fields (the wire names of spec section
   * 2, plus {@code subject_ids} and any additive fields).
   *
   * @throws InvalidRequestException naming the field: malformed JSON ({@code trace}), a field Loci
   *     assigns, an empty {@code task_class}, a semantic flag outside the nine
   */
  public PathwayWrite insertJson(Namespace ns, String json) {
    ObjectNode fields = object(json);
    for (String name : ASSIGNED) {
      if (fields.has(name)) {
        throw new InvalidRequestException(
            name,
            "is assigned by Loci on insert and must not be sent; to load traces that already have"
                + " it, use import");
      }
    }
    return insert(ns, draft(fields));
  }

  /**
   * Revises the head version {@code traceUid} (spec section 5.2): {@code change} receives a builder
   * holding the current head and returns it changed. The new version gets a fresh uid, {@code
   * version} + 1 and {@code parent_trace_uid}; the old one is marked superseded and kept. The
   * replay counters and the retired flag carry over, so revising never resurrects a retired
   * pathway. {@code change} runs inside the write path: keep it quick and free of side effects.
   *
   * @throws NotFoundException naming {@code trace_uid}
   * @throws dev.loci.ConflictException if {@code traceUid} is not the head version
   * @throws InvalidRequestException if the change moves the trace to another pathway ({@code
   *     task_class}, {@code signal_class}, or a {@code file_path} outside the prefix)
   */
  public PathwayWrite revise(
      Namespace ns, String traceUid, UnaryOperator<PathwayTrace.Builder> change) {
    requireUid(traceUid);
    return reviseWith(ns, traceUid, head -> change.apply(head.toBuilder()).build());
  }

  /**
   * Revises with a template made from the head as it is now, outside the write path (building it
   * and redacting its texts is work the caller sized); the decision checks the head again and takes
   * the counters from it, so a replay in between is kept and a revise in between is a conflict.
   */
  private PathwayWrite reviseWith(
      Namespace ns, String traceUid, UnaryOperator<PathwayTrace> change) {
    PathwayTrace template = change.apply(engine.read(() -> layer.require(ns, traceUid)));
    Redactions redacted = redactedOutsideTheWritePath(ns, template);
    return engine.execute(
        ns, actor, ctx -> layer.decideRevise(ctx, ns, traceUid, prev -> template, redacted));
  }

  /** Redacts a trace's free text with the namespace's policy now, before its command runs. */
  private Redactions redactedOutsideTheWritePath(Namespace ns, PathwayTrace t) {
    RedactionPolicy policy = engine.read(() -> layer.policyFor(ns));
    return Redactions.of(policy, t.reducerSummary(), t.finalVerdict());
  }

  /**
   * Revises with {@code new_fields}: a JSON object of the caller's fields to replace; the fields it
   * does not name keep the head version's values.
   *
   * @throws InvalidRequestException naming the field, including a field Loci assigns
   */
  public PathwayWrite reviseJson(Namespace ns, String traceUid, String newFieldsJson) {
    ObjectNode patch = object(newFieldsJson);
    for (String name : ASSIGNED) {
      if (patch.has(name)) {
        throw new InvalidRequestException(
            name, "is assigned by Loci on revise and must not be sent");
      }
    }
    requireUid(traceUid);
    return reviseWith(
        ns,
        traceUid,
        prev -> {
          ObjectNode merged = (ObjectNode) PathwayJson.MAPPER.valueToTree(prev);
          ASSIGNED.forEach(merged::remove);
          merged.setAll(patch);
          return draft(merged).build();
        });
  }

  /**
   * Records one replay of {@code traceUid} (spec section 5.3): {@code replay_count} + 1, and {@code
   * replays_succeeded} + 1 on success. When the probation gate fires ({@code replay_count >= 3} and
   * a success rate below 0.80), the pathway is retired in the same atomic write.
   *
   * @return the trace after the replay
   * @throws NotFoundException naming {@code trace_uid}
   */
  public PathwayTrace recordReplay(Namespace ns, String traceUid, boolean succeeded) {
    requireUid(traceUid);
    return engine.execute(ns, actor, ctx -> layer.decideReplay(ns, traceUid, succeeded));
  }

  /**
   * Sets the redaction policy of {@code ns} and its descendants that set none of their own. Applies
   * to writes from now on; stored traces are not rewritten.
   */
  public RedactionPolicy setRedactionPolicy(Namespace ns, RedactionPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    return engine.execute(ns, actor, ctx -> layer.decideRedactionPolicy(policy));
  }

  /** The redaction policy in force for {@code ns}. */
  public RedactionPolicy redactionPolicy(Namespace ns) {
    return engine.read(() -> layer.policyFor(ns));
  }

  /**
   * Imports a Rust {@code state.json} (spec section 7) into {@code ns}. Every trace is read and
   * checked before any is stored; then they are stored in batches of 1,000, redacted by the
   * namespace's policy. Traces whose {@code trace_uid} the namespace holds are skipped, so a
   * repeated import adds nothing. Legacy traces without a {@code trace_uid} get one and the {@code
   * legacy} marker.
   *
   * @throws InvalidRequestException naming the field and position ({@code
   *     pathways.<id>[3].task_class}); nothing is stored
   */
  public PathwayImportReport importRustState(Namespace ns, InputStream in) {
    RustStateFormat.Contents contents;
    try {
      contents = RustStateFormat.read(in);
    } catch (IOException e) {
      throw new StorageException("cannot read the import: " + e.getMessage(), e);
    }
    List<PathwayTrace> all = contents.traces();
    int imported = 0;
    int skipped = 0;
    int redactions = 0;
    for (int from = 0; from < all.size() || from == 0; from += IMPORT_CHUNK) {
      List<PathwayTrace> chunk = all.subList(from, Math.min(all.size(), from + IMPORT_CHUNK));
      boolean last = from + IMPORT_CHUNK >= all.size();
      Optional<Instant> lastUpdated = last ? contents.lastUpdatedAt() : Optional.empty();
      int[] r = engine.execute(ns, actor, ctx -> layer.decideImport(ns, chunk, lastUpdated));
      imported += r[0];
      skipped += r[1];
      redactions += r[2];
    }
    return new PathwayImportReport(imported, skipped, contents.legacyAssigned(), redactions);
  }

  /**
   * Writes the traces of {@code ns}, every version, in the Rust {@code state.json} shape: buckets
   * and traces in the order they were stored, {@code last_updated_at} the time of the namespace's
   * last write (or the imported file's, if later).
   */
  public void exportRustState(Namespace ns, Writer out) {
    Map.Entry<Map<String, List<PathwayTrace>>, Instant> state =
        engine.read(() -> layer.byPathway(ns));
    RustStateFormat.write(state.getKey(), state.getValue(), out);
  }

  // ---------------------------------------------------------------- reads

  /**
   * The head version {@code traceUid}.
   *
   * @throws NotFoundException naming {@code trace_uid} if there is none, or if it is superseded (a
   *     superseded version is read with {@link #get(Namespace, String, LegalCapability)})
   */
  public PathwayTrace get(Namespace ns, String traceUid) {
    requireUid(traceUid);
    PathwayTrace t = engine.read(() -> layer.require(ns, traceUid));
    if (t.supersededByTraceUid().isPresent()) {
      throw new NotFoundException(
          "trace_uid",
          traceUid
              + " is a superseded version (head: "
              + t.supersededByTraceUid().get()
              + "); superseded versions are read under the legal-tier capability");
    }
    return t;
  }

  /**
   * Any version {@code traceUid}, superseded ones included ({@code include_history}). Superseded
   * versions may carry personal data (spec section 6.2): the legal-tier capability is required and
   * the read is recorded with its holder before the trace is returned.
   *
   * @throws NotFoundException naming {@code trace_uid}
   */
  public PathwayTrace get(Namespace ns, String traceUid, LegalCapability legal) {
    requireLegal(legal);
    requireUid(traceUid);
    PathwayTrace t = engine.read(() -> layer.require(ns, traceUid));
    return recorded(NamespaceScope.exactly(ns), legal, "pathway.get", List.of(t)).get(0);
  }

  /**
   * The {@code pathway_vec} of any version {@code traceUid}, superseded ones included: a query
   * vector for {@link #queryByVec} ("traces like this one"). Only the 32 numbers derived from the
   * identity fields are returned, none of a version's free text, so no capability is needed.
   *
   * @throws NotFoundException naming {@code trace_uid}
   */
  public float[] vectorOf(Namespace ns, String traceUid) {
    requireUid(traceUid);
    return engine.read(() -> layer.require(ns, traceUid)).pathwayVec().values();
  }

  /**
   * The head traces of one pathway in the scope, in the order stored.
   *
   * @throws InvalidRequestException naming {@code pathway_id} if it is not 64 lower-case hex
   */
  public List<PathwayTrace> pathway(
      NamespaceScope scope, String pathwayId, boolean includeRetired) {
    requirePathwayId(pathwayId);
    return engine.read(() -> layer.pathway(scope, pathwayId, false, includeRetired));
  }

  /**
   * Every version of the traces of one pathway in the scope ({@code include_history}), under the
   * legal-tier capability; the read is recorded.
   *
   * @throws InvalidRequestException naming {@code pathway_id} if it is not 64 lower-case hex
   */
  public List<PathwayTrace> pathway(
      NamespaceScope scope, String pathwayId, boolean includeRetired, LegalCapability legal) {
    requireLegal(legal);
    requirePathwayId(pathwayId);
    return recorded(
        scope,
        legal,
        "pathway.history",
        engine.read(() -> layer.pathway(scope, pathwayId, true, includeRetired)));
  }

  /** {@code query_for_hotswap} with {@code k} = 5, head versions only. */
  public List<PathwayTrace> queryForHotswap(
      NamespaceScope scope, String taskClass, String filePath, Optional<String> signalClass) {
    return queryForHotswap(scope, taskClass, filePath, signalClass, HOTSWAP_K);
  }

  /**
   * {@code query_for_hotswap} (spec section 6.2): the top {@code k} head traces of the pathway
   * these inputs identify, in every namespace of the scope, ordered by success rate then replay
   * count, both descending (then newest first). Retired pathways never appear.
   *
   * @throws InvalidRequestException naming {@code task_class}, {@code file_path} or {@code k}
   */
  public List<PathwayTrace> queryForHotswap(
      NamespaceScope scope,
      String taskClass,
      String filePath,
      Optional<String> signalClass,
      int k) {
    String id = hotswapPathway(taskClass, filePath, signalClass, k);
    return engine.read(() -> layer.hotswap(scope, id, k, false));
  }

  /**
   * {@code query_for_hotswap} over every version, superseded ones included ({@code
   * include_history}), under the legal-tier capability; the read is recorded.
   */
  public List<PathwayTrace> queryForHotswap(
      NamespaceScope scope,
      String taskClass,
      String filePath,
      Optional<String> signalClass,
      int k,
      LegalCapability legal) {
    requireLegal(legal);
    String id = hotswapPathway(taskClass, filePath, signalClass, k);
    return recorded(
        scope, legal, "pathway.hotswap", engine.read(() -> layer.hotswap(scope, id, k, true)));
  }

  /** {@code query_by_vec} with {@code k} = 10, head versions of pathways not retired. */
  public List<ScoredTrace> queryByVec(NamespaceScope scope, float[] vec) {
    return queryByVec(scope, vec, SIMILAR_K, false);
  }

  /**
   * {@code query_by_vec} (spec section 6.2): the {@code k} head traces of the scope whose {@code
   * pathway_vec} is most similar to {@code vec} by cosine, best first (ties by uid), of pathways
   * not retired unless {@code includeRetired}.
   *
   * @throws InvalidRequestException naming {@code pathway_vec} if it does not have 32 finite values
   *     or is all zeros, or {@code k}
   */
  public List<ScoredTrace> queryByVec(
      NamespaceScope scope, float[] vec, int k, boolean includeRetired) {
    PathwayVec query = vector(vec);
    checkK(k);
    return engine.read(() -> layer.similar(scope, query, k, false, includeRetired));
  }

  /**
   * {@code query_by_vec} over every version, superseded ones included ({@code include_history}),
   * under the legal-tier capability; the read is recorded.
   */
  public List<ScoredTrace> queryByVec(
      NamespaceScope scope, float[] vec, int k, boolean includeRetired, LegalCapability legal) {
    requireLegal(legal);
    PathwayVec query = vector(vec);
    checkK(k);
    List<ScoredTrace> hits =
        engine.read(() -> layer.similar(scope, query, k, true, includeRetired));
    recorded(scope, legal, "pathway.similar", hits.stream().map(ScoredTrace::trace).toList());
    return hits;
  }

  /**
   * {@code list_versions} (spec section 6.2): the whole version chain {@code traceUid} belongs to,
   * root first. Chains can carry personal data, so the legal-tier capability is required, and the
   * read is recorded with its holder before the chain is returned.
   *
   * @throws NotFoundException naming {@code trace_uid}
   */
  public List<PathwayTrace> listVersions(Namespace ns, String traceUid, LegalCapability legal) {
    requireLegal(legal);
    requireUid(traceUid);
    return recorded(
        NamespaceScope.exactly(ns),
        legal,
        "pathway.list_versions",
        engine.read(() -> layer.versions(ns, traceUid)));
  }

  /** Records a legal read of {@code traces} (durably), then returns them. */
  private List<PathwayTrace> recorded(
      NamespaceScope scope, LegalCapability legal, String action, List<PathwayTrace> traces) {
    legalReads.record(
        scope.root(), legal, action, traces.stream().map(PathwayTrace::traceUid).toList());
    return traces;
  }

  private static void requireLegal(LegalCapability legal) {
    Objects.requireNonNull(legal, "reading superseded versions requires the legal-tier capability");
  }

  private static void requirePathwayId(String pathwayId) {
    if (pathwayId == null || !pathwayId.matches("[0-9a-f]{64}")) {
      throw new InvalidRequestException(
          "pathway_id", "expected 64 lowercase hex characters, found \"" + pathwayId + "\"");
    }
  }

  private static String hotswapPathway(
      String taskClass, String filePath, Optional<String> signalClass, int k) {
    PathwayIdentity.requireTaskClass(taskClass);
    if (filePath == null) {
      throw new InvalidRequestException("file_path", "expected a file path, found none");
    }
    checkK(k);
    return PathwayIdentity.pathwayId(taskClass, filePath, signalClass);
  }

  /** The ids of every pathway in the scope, retired ones included, sorted; for browsing. */
  public List<String> pathwayIds(NamespaceScope scope) {
    return engine.read(() -> layer.pathwayIds(scope));
  }

  /** Counts over the scope. */
  public PathwayStats stats(NamespaceScope scope) {
    return engine.read(() -> layer.stats(scope));
  }

  // ---------------------------------------------------------------- checks

  private static PathwayVec vector(float[] vec) {
    if (vec == null || vec.length != PathwayVec.DIMENSION) {
      throw new InvalidRequestException(
          "pathway_vec",
          "expected "
              + PathwayVec.DIMENSION
              + " numbers, found "
              + (vec == null ? "none" : String.valueOf(vec.length)));
    }
    boolean zero = true;
    for (int i = 0; i < vec.length; i++) {
      if (!Float.isFinite(vec[i])) {
        throw new InvalidRequestException(
            "pathway_vec", "expected finite numbers, found " + vec[i] + " at index " + i);
      }
      zero &= vec[i] == 0;
    }
    if (zero) {
      throw new InvalidRequestException(
          "pathway_vec", "expected a vector with a non-zero value; cosine is undefined for zeros");
    }
    return new PathwayVec(vec);
  }

  private static void checkK(int k) {
    if (k < 1 || k > MAX_K) {
      throw new InvalidRequestException("k", "expected 1 to " + MAX_K + ", found " + k);
    }
  }

  private static void requireUid(String traceUid) {
    if (traceUid == null || traceUid.isBlank()) {
      throw new InvalidRequestException("trace_uid", "expected a trace uid, found none");
    }
  }

  private static ObjectNode object(String json) {
    JsonNode node;
    try {
      node = PathwayJson.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "trace",
          "expected a JSON object, found an error: " + dev.loci.internal.Json.errorText(e));
    }
    if (node == null || !node.isObject()) {
      throw new InvalidRequestException(
          "trace",
          "expected a JSON object, found " + (node == null ? "nothing" : node.getNodeType()));
    }
    return (ObjectNode) node;
  }

  /** A builder from the caller's fields; {@code created_at} is a placeholder Loci replaces. */
  private static PathwayTrace.Builder draft(ObjectNode fields) {
    ObjectNode copy = fields.deepCopy();
    copy.put("created_at", Instant.EPOCH.toString());
    return PathwayTrace.fromJson(copy.toString()).toBuilder().pathwayId(null).pathwayVec(null);
  }
}
