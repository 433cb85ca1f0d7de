package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.loci.InvalidRequestException;
import dev.loci.pathway.internal.PathwayJson;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One observed instance of a pathway (spec section 2): identity, identity sources, observations,
 * index fields and the optional semantic-correctness fields, with the spec's snake_case JSON names.
 * Immutable; safe to share between threads.
 *
 * <p>Reading ({@link #fromJson(String)}) accepts legacy traces and follows the spec for every
 * default: a missing {@code trace_uid} is the empty string; a missing {@code version} is 1; missing
 * {@code parent_trace_uid}, {@code superseded_at}, {@code superseded_by_trace_uid}, {@code
 * signal_class} and {@code audit_consensus} are absent; missing lists (including every section 2.5
 * field) are empty; missing {@code replay_count} and {@code replays_succeeded} are 0 and a missing
 * {@code retired} is false; missing {@code reducer_summary} and {@code final_verdict} are empty
 * strings. {@code pathway_id} and {@code pathway_vec} are derived data: when missing they are
 * computed with {@link PathwayIdentity}. When present they are kept as written (a stored {@code
 * pathway_id} is checked for shape, not recomputed), so a foreign file round-trips unchanged.
 * {@code task_class}, {@code file_path} and {@code created_at} are required.
 *
 * <p>Unknown top-level fields are preserved: they land in {@link #unknownFields()} and are written
 * back after the known fields, so a file written by a newer peer (spec section 8 allows additive
 * fields, for example the {@code subject_ids} of section 6.3) survives a read-modify-write. Nested
 * types ignore unknown fields.
 *
 * @param pathwayId SHA-256 hex of {@code task_class|file_prefix|signal_class} (section 3.1)
 * @param traceUid the trace's UUID; empty on legacy traces
 * @param version the Mem0 version, at least 1
 * @param parentTraceUid the trace this version supersedes; absent on a root version
 * @param supersededAt when this trace stopped being the head version; absent on a head
 * @param supersededByTraceUid the head that superseded this trace; absent on a head
 * @param taskClass the caller-defined task class; never blank
 * @param filePath the full path of the reviewed file
 * @param signalClass the caller-defined behavior label; absent is written as JSON {@code null}
 * @param createdAt when the trace was inserted
 * @param ladderAttempts the model + rung attempts in dispatch order
 * @param kbChunks the knowledge-base chunks given as context
 * @param observerSignals the observer's behavior labels
 * @param bridgeHits the external-documentation lookups
 * @param subPipelineCalls the calls to other sub-pipelines
 * @param auditConsensus the cross-lineage audit outcome, if any
 * @param reducerSummary the reducer's free-text summary (PII risk surface, section 6.3)
 * @param finalVerdict the free-text verdict label (PII risk surface, section 6.3)
 * @param pathwayVec the 32-bucket vector of section 4
 * @param replayCount how often the pathway was replayed through this trace, at least 0
 * @param replaysSucceeded how many of those replays succeeded, at least 0
 * @param retired whether the probation gate retired the pathway
 * @param semanticFlags the caller-emitted semantic flags (section 2.5)
 * @param typeHintsUsed the type context fed to the reviewer (section 2.5)
 * @param bugFingerprints the structural patterns caught (section 2.5)
 * @param subjectIds the subjects (people) the trace is about, when known (section 6.3), so an audit
 *     can find their traces; written only when not empty
 * @param legacy whether the trace was imported without a {@code trace_uid} and Loci assigned one;
 *     written only when true
 * @param unknownFields top-level JSON fields this version of the spec does not name, by name
 */
@JsonPropertyOrder({
  "pathway_id",
  "trace_uid",
  "version",
  "parent_trace_uid",
  "superseded_at",
  "superseded_by_trace_uid",
  "task_class",
  "file_path",
  "signal_class",
  "created_at",
  "ladder_attempts",
  "kb_chunks",
  "observer_signals",
  "bridge_hits",
  "sub_pipeline_calls",
  "audit_consensus",
  "reducer_summary",
  "final_verdict",
  "pathway_vec",
  "replay_count",
  "replays_succeeded",
  "retired",
  "semantic_flags",
  "type_hints_used",
  "bug_fingerprints",
  "subject_ids",
  "legacy"
})
public record PathwayTrace(
    @JsonProperty("pathway_id") String pathwayId,
    @JsonProperty("trace_uid") String traceUid,
    @JsonProperty("version") int version,
    @JsonProperty("parent_trace_uid") Optional<String> parentTraceUid,
    @JsonProperty("superseded_at") Optional<Instant> supersededAt,
    @JsonProperty("superseded_by_trace_uid") Optional<String> supersededByTraceUid,
    @JsonProperty("task_class") String taskClass,
    @JsonProperty("file_path") String filePath,
    @JsonProperty("signal_class") Optional<String> signalClass,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("ladder_attempts") List<LadderAttempt> ladderAttempts,
    @JsonProperty("kb_chunks") List<KbChunkRef> kbChunks,
    @JsonProperty("observer_signals") List<ObserverSignal> observerSignals,
    @JsonProperty("bridge_hits") List<BridgeHit> bridgeHits,
    @JsonProperty("sub_pipeline_calls") List<SubPipelineCall> subPipelineCalls,
    @JsonProperty("audit_consensus") Optional<AuditConsensus> auditConsensus,
    @JsonProperty("reducer_summary") String reducerSummary,
    @JsonProperty("final_verdict") String finalVerdict,
    @JsonProperty("pathway_vec") PathwayVec pathwayVec,
    @JsonProperty("replay_count") int replayCount,
    @JsonProperty("replays_succeeded") int replaysSucceeded,
    @JsonProperty("retired") boolean retired,
    @JsonProperty("semantic_flags") List<SemanticFlag> semanticFlags,
    @JsonProperty("type_hints_used") List<TypeHint> typeHintsUsed,
    @JsonProperty("bug_fingerprints") List<BugFingerprint> bugFingerprints,
    @JsonProperty("subject_ids") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<String> subjectIds,
    @JsonProperty("legacy") @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean legacy,
    Map<String, JsonNode> unknownFields) {

  private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");
  private static final Set<String> KNOWN_FIELDS =
      Set.of(PathwayTrace.class.getAnnotation(JsonPropertyOrder.class).value());

  /**
   * Validates and copies.
   *
   * @throws InvalidRequestException naming the field: {@code task_class} blank, {@code pathway_id}
   *     not 64 lowercase hex characters, {@code version} below 1, {@code replay_count} or {@code
   *     replays_succeeded} negative, or an {@code unknownFields} key that is a known field
   * @throws NullPointerException if any component is null
   */
  public PathwayTrace {
    PathwayIdentity.requireTaskClass(taskClass);
    Objects.requireNonNull(pathwayId, "pathwayId");
    Objects.requireNonNull(traceUid, "traceUid");
    Objects.requireNonNull(parentTraceUid, "parentTraceUid");
    Objects.requireNonNull(supersededAt, "supersededAt");
    Objects.requireNonNull(supersededByTraceUid, "supersededByTraceUid");
    Objects.requireNonNull(filePath, "filePath");
    Objects.requireNonNull(signalClass, "signalClass");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(auditConsensus, "auditConsensus");
    Objects.requireNonNull(reducerSummary, "reducerSummary");
    Objects.requireNonNull(finalVerdict, "finalVerdict");
    Objects.requireNonNull(pathwayVec, "pathwayVec");
    if (!HEX_64.matcher(pathwayId).matches()) {
      throw new InvalidRequestException(
          "pathway_id", "expected 64 lowercase hex characters, found \"" + pathwayId + "\"");
    }
    if (version < 1) {
      throw new InvalidRequestException("version", "expected at least 1, found " + version);
    }
    if (replayCount < 0) {
      throw new InvalidRequestException(
          "replay_count", "expected at least 0, found " + replayCount);
    }
    if (replaysSucceeded < 0) {
      throw new InvalidRequestException(
          "replays_succeeded", "expected at least 0, found " + replaysSucceeded);
    }
    ladderAttempts = List.copyOf(ladderAttempts);
    kbChunks = List.copyOf(kbChunks);
    observerSignals = List.copyOf(observerSignals);
    bridgeHits = List.copyOf(bridgeHits);
    subPipelineCalls = List.copyOf(subPipelineCalls);
    semanticFlags = List.copyOf(semanticFlags);
    typeHintsUsed = List.copyOf(typeHintsUsed);
    bugFingerprints = List.copyOf(bugFingerprints);
    subjectIds = List.copyOf(subjectIds);
    for (int i = 0; i < subjectIds.size(); i++) {
      if (subjectIds.get(i).isBlank()) {
        throw new InvalidRequestException(
            "subject_ids", "expected non-blank subject ids, found a blank one at index " + i);
      }
    }
    unknownFields = copyUnknown(unknownFields);
    // Pathway ids, task classes, files, signal classes and verdicts repeat across traces (a
    // pathway is a task class on a file): one copy each in the heap (docs/performance.md).
    pathwayId = pathwayId.intern();
    taskClass = taskClass.intern();
    filePath = filePath.intern();
    signalClass = signalClass.map(String::intern);
    finalVerdict = finalVerdict.intern();
  }

  /**
   * Reads one trace from its JSON wire form, applying the legacy defaults described on this type.
   *
   * @throws InvalidRequestException naming the offending field (for example {@code task_class},
   *     {@code semantic_flags}, {@code ladder_attempts.model}), or {@code trace} if the text is not
   *     one JSON value
   */
  public static PathwayTrace fromJson(String json) {
    return PathwayJson.read(json, PathwayTrace.class);
  }

  /** This trace as compact JSON: known fields in spec order, then the unknown fields. */
  public String toJson() {
    return PathwayJson.write(this);
  }

  /** The unknown top-level fields, in the order read; a fresh deep copy on every call. */
  @Override
  @JsonAnyGetter
  public Map<String, JsonNode> unknownFields() {
    return copyUnknown(unknownFields);
  }

  @JsonCreator
  static PathwayTrace fromWire(
      @JsonProperty("pathway_id") String pathwayId,
      @JsonProperty("trace_uid") String traceUid,
      @JsonProperty("version") Integer version,
      @JsonProperty("parent_trace_uid") Optional<String> parentTraceUid,
      @JsonProperty("superseded_at") Optional<Instant> supersededAt,
      @JsonProperty("superseded_by_trace_uid") Optional<String> supersededByTraceUid,
      @JsonProperty("task_class") String taskClass,
      @JsonProperty("file_path") String filePath,
      @JsonProperty("signal_class") Optional<String> signalClass,
      @JsonProperty("created_at") Instant createdAt,
      @JsonProperty("ladder_attempts") List<LadderAttempt> ladderAttempts,
      @JsonProperty("kb_chunks") List<KbChunkRef> kbChunks,
      @JsonProperty("observer_signals") List<ObserverSignal> observerSignals,
      @JsonProperty("bridge_hits") List<BridgeHit> bridgeHits,
      @JsonProperty("sub_pipeline_calls") List<SubPipelineCall> subPipelineCalls,
      @JsonProperty("audit_consensus") Optional<AuditConsensus> auditConsensus,
      @JsonProperty("reducer_summary") String reducerSummary,
      @JsonProperty("final_verdict") String finalVerdict,
      @JsonProperty("pathway_vec") PathwayVec pathwayVec,
      @JsonProperty("replay_count") Integer replayCount,
      @JsonProperty("replays_succeeded") Integer replaysSucceeded,
      @JsonProperty("retired") Boolean retired,
      @JsonProperty("semantic_flags") List<SemanticFlag> semanticFlags,
      @JsonProperty("type_hints_used") List<TypeHint> typeHintsUsed,
      @JsonProperty("bug_fingerprints") List<BugFingerprint> bugFingerprints,
      @JsonProperty("subject_ids") List<String> subjectIds,
      @JsonProperty("legacy") Boolean legacy,
      @JsonAnySetter Map<String, JsonNode> unknownFields) {
    PathwayIdentity.requireTaskClass(taskClass);
    if (filePath == null) {
      throw new InvalidRequestException("file_path", "expected a file path, found none");
    }
    if (createdAt == null) {
      throw new InvalidRequestException("created_at", "expected an RFC 3339 timestamp, found none");
    }
    Optional<String> signal = orEmpty(signalClass);
    List<LadderAttempt> ladder = orEmpty(ladderAttempts);
    List<KbChunkRef> kb = orEmpty(kbChunks);
    List<ObserverSignal> signals = orEmpty(observerSignals);
    List<BugFingerprint> fingerprints =
        requireElements(orEmpty(bugFingerprints), "bug_fingerprints");
    List<SemanticFlag> flags = requireElements(orEmpty(semanticFlags), "semantic_flags");
    return new PathwayTrace(
        pathwayId != null ? pathwayId : PathwayIdentity.pathwayId(taskClass, filePath, signal),
        traceUid != null ? traceUid : "",
        version != null ? version : 1,
        orEmpty(parentTraceUid),
        orEmpty(supersededAt),
        orEmpty(supersededByTraceUid),
        taskClass,
        filePath,
        signal,
        createdAt,
        ladder,
        kb,
        signals,
        orEmpty(bridgeHits),
        orEmpty(subPipelineCalls),
        orEmpty(auditConsensus),
        reducerSummary != null ? reducerSummary : "",
        finalVerdict != null ? finalVerdict : "",
        pathwayVec != null
            ? pathwayVec
            : PathwayIdentity.vectorOf(
                PathwayIdentity.tokens(
                    taskClass, filePath, signal, ladder, kb, signals, fingerprints)),
        replayCount != null ? replayCount : 0,
        replaysSucceeded != null ? replaysSucceeded : 0,
        retired != null && retired,
        flags,
        orEmpty(typeHintsUsed),
        fingerprints,
        requireElements(orEmpty(subjectIds), "subject_ids"),
        legacy != null && legacy,
        unknownFields != null ? unknownFields : Map.of());
  }

  private static <T> List<T> requireElements(List<T> list, String field) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == null) {
        throw new InvalidRequestException(field, "expected a value, found null at index " + i);
      }
    }
    return list;
  }

  private static <T> Optional<T> orEmpty(Optional<T> value) {
    return value != null ? value : Optional.empty();
  }

  private static <T> List<T> orEmpty(List<T> value) {
    return value != null ? value : List.of();
  }

  private static Map<String, JsonNode> copyUnknown(Map<String, JsonNode> fields) {
    if (fields.isEmpty()) {
      return Map.of(); // most traces have none: no empty map of their own
    }
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    fields.forEach(
        (name, value) -> {
          Objects.requireNonNull(name, "unknown field name");
          if (KNOWN_FIELDS.contains(name)) {
            throw new InvalidRequestException(
                name, "is a known field and cannot also be an unknown field");
          }
          copy.put(name, value == null ? NullNode.getInstance() : value.deepCopy());
        });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * A builder for a trace of {@code taskClass} on {@code filePath}, with every other field at its
   * spec default and {@code created_at} at the Unix epoch. As a draft for {@code
   * PathwayMemory.insert}, only the caller's fields matter: Loci assigns the rest.
   */
  public static Builder builder(String taskClass, String filePath) {
    return new Builder().taskClass(taskClass).filePath(filePath);
  }

  /** A builder holding this trace's values, including its stored {@code pathway_id} and vector. */
  public Builder toBuilder() {
    Builder b = new Builder();
    PathwayTrace t = this;
    b.pathwayId = t.pathwayId;
    b.traceUid = t.traceUid;
    b.version = t.version;
    b.parentTraceUid = t.parentTraceUid;
    b.supersededAt = t.supersededAt;
    b.supersededByTraceUid = t.supersededByTraceUid;
    b.taskClass = t.taskClass;
    b.filePath = t.filePath;
    b.signalClass = t.signalClass;
    b.createdAt = t.createdAt;
    b.ladderAttempts = t.ladderAttempts;
    b.kbChunks = t.kbChunks;
    b.observerSignals = t.observerSignals;
    b.bridgeHits = t.bridgeHits;
    b.subPipelineCalls = t.subPipelineCalls;
    b.auditConsensus = t.auditConsensus;
    b.reducerSummary = t.reducerSummary;
    b.finalVerdict = t.finalVerdict;
    b.pathwayVec = t.pathwayVec;
    b.replayCount = t.replayCount;
    b.replaysSucceeded = t.replaysSucceeded;
    b.retired = t.retired;
    b.semanticFlags = t.semanticFlags;
    b.typeHintsUsed = t.typeHintsUsed;
    b.bugFingerprints = t.bugFingerprints;
    b.subjectIds = t.subjectIds;
    b.legacy = t.legacy;
    b.unknownFields = t.unknownFields;
    return b;
  }

  /**
   * Builds {@link PathwayTrace}s. {@code pathway_id} and {@code pathway_vec}, unless set, are
   * computed from the other fields when {@link #build()} runs. Not thread-safe.
   */
  public static final class Builder {
    private String pathwayId = null;
    private String traceUid = "";
    private int version = 1;
    private Optional<String> parentTraceUid = Optional.empty();
    private Optional<Instant> supersededAt = Optional.empty();
    private Optional<String> supersededByTraceUid = Optional.empty();
    private String taskClass = "";
    private String filePath = "";
    private Optional<String> signalClass = Optional.empty();
    private Instant createdAt = Instant.EPOCH;
    private List<LadderAttempt> ladderAttempts = List.of();
    private List<KbChunkRef> kbChunks = List.of();
    private List<ObserverSignal> observerSignals = List.of();
    private List<BridgeHit> bridgeHits = List.of();
    private List<SubPipelineCall> subPipelineCalls = List.of();
    private Optional<AuditConsensus> auditConsensus = Optional.empty();
    private String reducerSummary = "";
    private String finalVerdict = "";
    private PathwayVec pathwayVec = null;
    private int replayCount = 0;
    private int replaysSucceeded = 0;
    private boolean retired = false;
    private List<SemanticFlag> semanticFlags = List.of();
    private List<TypeHint> typeHintsUsed = List.of();
    private List<BugFingerprint> bugFingerprints = List.of();
    private List<String> subjectIds = List.of();
    private boolean legacy = false;
    private Map<String, JsonNode> unknownFields = Map.of();

    private Builder() {}

    /**
     * Sets {@code pathway_id}; {@code null} (the default) computes it from {@code task_class},
     * {@code file_path} and {@code signal_class} on build.
     */
    public Builder pathwayId(String pathwayId) {
      this.pathwayId = pathwayId;
      return this;
    }

    /** Sets {@code pathway_vec}; {@code null} (the default) computes it on build. */
    public Builder pathwayVec(PathwayVec pathwayVec) {
      this.pathwayVec = pathwayVec;
      return this;
    }

    /** Sets {@code created_at}; default the Unix epoch. */
    public Builder createdAt(Instant createdAt) {
      this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
      return this;
    }

    /** Sets {@code trace_uid}. */
    public Builder traceUid(String traceUid) {
      this.traceUid = Objects.requireNonNull(traceUid, "traceUid");
      return this;
    }

    /** Sets {@code version}. */
    public Builder version(int version) {
      this.version = version;
      return this;
    }

    /** Sets {@code parent_trace_uid}. */
    public Builder parentTraceUid(Optional<String> parentTraceUid) {
      this.parentTraceUid = Objects.requireNonNull(parentTraceUid, "parentTraceUid");
      return this;
    }

    /** Sets {@code superseded_at}. */
    public Builder supersededAt(Optional<Instant> supersededAt) {
      this.supersededAt = Objects.requireNonNull(supersededAt, "supersededAt");
      return this;
    }

    /** Sets {@code superseded_by_trace_uid}. */
    public Builder supersededByTraceUid(Optional<String> supersededByTraceUid) {
      this.supersededByTraceUid =
          Objects.requireNonNull(supersededByTraceUid, "supersededByTraceUid");
      return this;
    }

    /** Sets {@code task_class}. */
    public Builder taskClass(String taskClass) {
      this.taskClass = Objects.requireNonNull(taskClass, "taskClass");
      return this;
    }

    /** Sets {@code file_path}. */
    public Builder filePath(String filePath) {
      this.filePath = Objects.requireNonNull(filePath, "filePath");
      return this;
    }

    /** Sets {@code signal_class}. */
    public Builder signalClass(Optional<String> signalClass) {
      this.signalClass = Objects.requireNonNull(signalClass, "signalClass");
      return this;
    }

    /** Sets {@code ladder_attempts}. */
    public Builder ladderAttempts(List<LadderAttempt> ladderAttempts) {
      this.ladderAttempts = Objects.requireNonNull(ladderAttempts, "ladderAttempts");
      return this;
    }

    /** Sets {@code kb_chunks}. */
    public Builder kbChunks(List<KbChunkRef> kbChunks) {
      this.kbChunks = Objects.requireNonNull(kbChunks, "kbChunks");
      return this;
    }

    /** Sets {@code observer_signals}. */
    public Builder observerSignals(List<ObserverSignal> observerSignals) {
      this.observerSignals = Objects.requireNonNull(observerSignals, "observerSignals");
      return this;
    }

    /** Sets {@code bridge_hits}. */
    public Builder bridgeHits(List<BridgeHit> bridgeHits) {
      this.bridgeHits = Objects.requireNonNull(bridgeHits, "bridgeHits");
      return this;
    }

    /** Sets {@code sub_pipeline_calls}. */
    public Builder subPipelineCalls(List<SubPipelineCall> subPipelineCalls) {
      this.subPipelineCalls = Objects.requireNonNull(subPipelineCalls, "subPipelineCalls");
      return this;
    }

    /** Sets {@code audit_consensus}. */
    public Builder auditConsensus(Optional<AuditConsensus> auditConsensus) {
      this.auditConsensus = Objects.requireNonNull(auditConsensus, "auditConsensus");
      return this;
    }

    /** Sets {@code reducer_summary}. */
    public Builder reducerSummary(String reducerSummary) {
      this.reducerSummary = Objects.requireNonNull(reducerSummary, "reducerSummary");
      return this;
    }

    /** Sets {@code final_verdict}. */
    public Builder finalVerdict(String finalVerdict) {
      this.finalVerdict = Objects.requireNonNull(finalVerdict, "finalVerdict");
      return this;
    }

    /** Sets {@code replay_count}. */
    public Builder replayCount(int replayCount) {
      this.replayCount = replayCount;
      return this;
    }

    /** Sets {@code replays_succeeded}. */
    public Builder replaysSucceeded(int replaysSucceeded) {
      this.replaysSucceeded = replaysSucceeded;
      return this;
    }

    /** Sets {@code retired}. */
    public Builder retired(boolean retired) {
      this.retired = retired;
      return this;
    }

    /** Sets {@code semantic_flags}. */
    public Builder semanticFlags(List<SemanticFlag> semanticFlags) {
      this.semanticFlags = Objects.requireNonNull(semanticFlags, "semanticFlags");
      return this;
    }

    /** Sets {@code type_hints_used}. */
    public Builder typeHintsUsed(List<TypeHint> typeHintsUsed) {
      this.typeHintsUsed = Objects.requireNonNull(typeHintsUsed, "typeHintsUsed");
      return this;
    }

    /** Sets {@code bug_fingerprints}. */
    public Builder bugFingerprints(List<BugFingerprint> bugFingerprints) {
      this.bugFingerprints = Objects.requireNonNull(bugFingerprints, "bugFingerprints");
      return this;
    }

    /** Sets {@code subject_ids}. */
    public Builder subjectIds(List<String> subjectIds) {
      this.subjectIds = Objects.requireNonNull(subjectIds, "subjectIds");
      return this;
    }

    /** Sets {@code legacy}. */
    public Builder legacy(boolean legacy) {
      this.legacy = legacy;
      return this;
    }

    /** Sets {@code unknown fields}. */
    public Builder unknownFields(Map<String, JsonNode> unknownFields) {
      this.unknownFields = Objects.requireNonNull(unknownFields, "unknownFields");
      return this;
    }

    /** Sets {@code signal_class}; {@code null} means absent. */
    public Builder signalClass(String signalClass) {
      this.signalClass = Optional.ofNullable(signalClass);
      return this;
    }

    /**
     * Builds the trace.
     *
     * @throws InvalidRequestException naming the field, as the canonical constructor does
     */
    public PathwayTrace build() {
      return new PathwayTrace(
          pathwayId != null
              ? pathwayId
              : PathwayIdentity.pathwayId(taskClass, filePath, signalClass),
          traceUid,
          version,
          parentTraceUid,
          supersededAt,
          supersededByTraceUid,
          taskClass,
          filePath,
          signalClass,
          createdAt,
          ladderAttempts,
          kbChunks,
          observerSignals,
          bridgeHits,
          subPipelineCalls,
          auditConsensus,
          reducerSummary,
          finalVerdict,
          pathwayVec != null
              ? pathwayVec
              : PathwayIdentity.vectorOf(
                  PathwayIdentity.tokens(
                      taskClass,
                      filePath,
                      signalClass,
                      ladderAttempts,
                      kbChunks,
                      observerSignals,
                      bugFingerprints)),
          replayCount,
          replaysSucceeded,
          retired,
          semanticFlags,
          typeHintsUsed,
          bugFingerprints,
          subjectIds,
          legacy,
          unknownFields);
    }
  }
}
