package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.pathway.internal.PathwayJson;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AbstractObjectAssert;
import org.junit.jupiter.api.Test;

class PathwayTraceJsonTest {

  private static final String LEGACY =
      """
      {"pathway_id":"%s","task_class":"scrum_review",
       "file_path":"crates/queryd/src/service.rs","signal_class":"CONVERGING",
       "created_at":"2026-04-29T05:43:00Z",
       "ladder_attempts":[{"rung":0,"model":"qwen","latency_ms":812,"accepted":true}],
       "kb_chunks":[],"observer_signals":[],"bridge_hits":[],"sub_pipeline_calls":[],
       "audit_consensus":null,"reducer_summary":"ok","final_verdict":"accepted",
       "replay_count":2,"replays_succeeded":1,"retired":false}
      """
          .formatted(
              PathwayIdentity.pathwayId(
                  "scrum_review", "crates/queryd/src/service.rs", Optional.of("CONVERGING")));

  static PathwayTrace full() {
    List<LadderAttempt> ladder =
        List.of(
            new LadderAttempt(0, "qwen", 812, false, Optional.of("timeout")),
            new LadderAttempt(1, "claude", 1500, true, Optional.empty()));
    List<KbChunkRef> kb = List.of(new KbChunkRef("adr-021.md", "adr-021.md#3", 0.8125, 0));
    List<ObserverSignal> signals =
        List.of(new ObserverSignal("LOOPING", 2, List.of("rejected", "rejected")));
    List<BugFingerprint> fingerprints =
        List.of(new BugFingerprint(SemanticFlag.OFF_BY_ONE, "loop-bound", "i <= n", 3));
    PathwayTrace draft =
        new PathwayTrace(
            PathwayIdentity.pathwayId(
                "scrum_review", "crates/queryd/src/service.rs", Optional.of("LOOPING")),
            "0196a1b2-0000-7000-8000-000000000002",
            2,
            Optional.of("0196a1b2-0000-7000-8000-000000000001"),
            Optional.of(Instant.parse("2026-05-03T09:00:00.123456Z")),
            Optional.of("0196a1b2-0000-7000-8000-000000000003"),
            "scrum_review",
            "crates/queryd/src/service.rs",
            Optional.of("LOOPING"),
            Instant.parse("2026-05-03T08:07:38Z"),
            ladder,
            kb,
            signals,
            List.of(new BridgeHit("tokio", "1.40", "spawn docs")),
            List.of(SubPipelineCall.of("{\"pipeline\": \"extract\", \"ok\": true, \"n\": [1, 2]}")),
            Optional.of(new AuditConsensus(false, List.of("gpt", "claude"), List.of("bound"))),
            "reducer saw an off-by-one",
            "needs_review",
            PathwayVec.of(new float[32]),
            5,
            3,
            true,
            List.of(SemanticFlag.OFF_BY_ONE, SemanticFlag.BOUNDARY_VIOLATION),
            List.of(new TypeHint("schema", "Row", "struct Row { id: u64 }")),
            fingerprints,
            List.of("cand-7"),
            false,
            Map.of());
    return PathwayTrace.fromJson(
        draft
            .toJson()
            .replace(
                PathwayJson.write(draft.pathwayVec()),
                PathwayJson.write(PathwayIdentity.pathwayVec(draft))));
  }

  private static AbstractObjectAssert<?, String> assertField(Runnable action) {
    return assertThatThrownBy(action::run)
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field());
  }

  @Test
  void roundTrip_fullyPopulatedTrace_isLossless() throws Exception {
    PathwayTrace trace = full();
    String json = trace.toJson();
    PathwayTrace back = PathwayTrace.fromJson(json);
    assertThat(back).isEqualTo(trace);
    assertThat(back.toJson()).isEqualTo(json);
    assertThat(PathwayJson.MAPPER.readTree(back.toJson()))
        .isEqualTo(PathwayJson.MAPPER.readTree(json));
    assertThat(back.pathwayVec()).isEqualTo(PathwayIdentity.pathwayVec(trace));
  }

  @Test
  void toJson_fullyPopulatedTrace_usesSpecSnakeCaseNames() throws Exception {
    JsonNode node = PathwayJson.MAPPER.readTree(full().toJson());
    assertThat(node.fieldNames())
        .toIterable()
        .containsExactly(
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
            "subject_ids");
    assertThat(node.get("ladder_attempts").get(0).fieldNames())
        .toIterable()
        .containsExactly("rung", "model", "latency_ms", "accepted", "reject_reason");
    assertThat(node.get("ladder_attempts").get(1).has("reject_reason")).isFalse();
    assertThat(node.get("kb_chunks").get(0).fieldNames())
        .toIterable()
        .containsExactly("source_doc", "chunk_id", "cosine_score", "rank");
    assertThat(node.get("observer_signals").get(0).fieldNames())
        .toIterable()
        .containsExactly("class", "priors", "prior_iter_outcomes");
    assertThat(node.get("bridge_hits").get(0).fieldNames())
        .toIterable()
        .containsExactly("library", "version", "result_summary");
    assertThat(node.get("audit_consensus").fieldNames())
        .toIterable()
        .containsExactly("pass", "models", "disagreements");
    assertThat(node.get("type_hints_used").get(0).fieldNames())
        .toIterable()
        .containsExactly("source", "symbol", "type_repr");
    assertThat(node.get("bug_fingerprints").get(0).fieldNames())
        .toIterable()
        .containsExactly("flag", "pattern_key", "example", "occurrences");
    assertThat(node.get("bug_fingerprints").get(0).get("flag").asText()).isEqualTo("OffByOne");
    assertThat(node.get("semantic_flags").toString())
        .isEqualTo("[\"OffByOne\",\"BoundaryViolation\"]");
    assertThat(node.get("sub_pipeline_calls").get(0).toString())
        .isEqualTo("{\"pipeline\":\"extract\",\"ok\":true,\"n\":[1,2]}");
    assertThat(node.get("superseded_at").asText()).isEqualTo("2026-05-03T09:00:00.123456Z");
    assertThat(node.get("pathway_vec").size()).isEqualTo(32);
  }

  @Test
  void toJson_rootHeadVersion_writesNullForAbsentIdentityFields() throws Exception {
    JsonNode node = PathwayJson.MAPPER.readTree(PathwayTrace.fromJson(LEGACY).toJson());
    assertThat(node.get("parent_trace_uid").isNull()).isTrue();
    assertThat(node.get("superseded_at").isNull()).isTrue();
    assertThat(node.get("superseded_by_trace_uid").isNull()).isTrue();
    assertThat(node.get("audit_consensus").isNull()).isTrue();
  }

  @Test
  void fromJson_legacyTrace_appliesSpecDefaults() {
    PathwayTrace t = PathwayTrace.fromJson(LEGACY);
    assertThat(t.traceUid()).isEmpty();
    assertThat(t.version()).isEqualTo(1);
    assertThat(t.parentTraceUid()).isEmpty();
    assertThat(t.supersededAt()).isEmpty();
    assertThat(t.supersededByTraceUid()).isEmpty();
    assertThat(t.semanticFlags()).isEmpty();
    assertThat(t.typeHintsUsed()).isEmpty();
    assertThat(t.bugFingerprints()).isEmpty();
    assertThat(t.unknownFields()).isEmpty();
    assertThat(t.replayCount()).isEqualTo(2);
    assertThat(t.replaysSucceeded()).isEqualTo(1);
    assertThat(t.ladderAttempts())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.model()).isEqualTo("qwen");
              assertThat(a.rejectReason()).isEmpty();
            });
  }

  @Test
  void fromJson_legacyTraceWithoutDerivedFields_computesPathwayIdAndVec() {
    PathwayTrace t =
        PathwayTrace.fromJson(
            "{\"task_class\":\"t\",\"file_path\":\"a/b/c\",\"created_at\":\"2026-04-29T05:43:00Z\"}");
    assertThat(t.pathwayId()).isEqualTo(PathwayIdentity.pathwayId("t", "a/b/c", Optional.empty()));
    assertThat(t.pathwayVec()).isEqualTo(PathwayIdentity.pathwayVec(t));
    assertThat(t.signalClass()).isEmpty();
    assertThat(t.ladderAttempts()).isEmpty();
    assertThat(t.auditConsensus()).isEmpty();
    assertThat(t.reducerSummary()).isEmpty();
    assertThat(t.finalVerdict()).isEmpty();
    assertThat(t.replayCount()).isZero();
    assertThat(t.retired()).isFalse();
  }

  @Test
  void fromJson_explicitNullLists_readAsEmpty() {
    PathwayTrace t =
        PathwayTrace.fromJson(
            "{\"task_class\":\"t\",\"file_path\":\"a\",\"created_at\":\"2026-04-29T05:43:00Z\","
                + "\"semantic_flags\":null,\"type_hints_used\":null,\"bug_fingerprints\":null}");
    assertThat(t.semanticFlags()).isEmpty();
    assertThat(t.typeHintsUsed()).isEmpty();
    assertThat(t.bugFingerprints()).isEmpty();
  }

  @Test
  void fromJson_offsetTimestamp_readsAsUtcInstant() {
    PathwayTrace t =
        PathwayTrace.fromJson(
            "{\"task_class\":\"t\",\"file_path\":\"a\",\"created_at\":\"2026-04-29T07:43:00+02:00\"}");
    assertThat(t.createdAt()).isEqualTo(Instant.parse("2026-04-29T05:43:00Z"));
  }

  @Test
  void subjectIdsAndLegacy_writtenOnlyWhenSet_soForeignTracesRoundTripUnchanged() throws Exception {
    PathwayTrace plain = PathwayTrace.fromJson(LEGACY);
    JsonNode written = PathwayJson.MAPPER.readTree(plain.toJson());
    assertThat(written.has("subject_ids")).isFalse();
    assertThat(written.has("legacy")).isFalse();

    PathwayTrace marked = plain.toBuilder().subjectIds(List.of("cand-7")).legacy(true).build();
    JsonNode markedJson = PathwayJson.MAPPER.readTree(marked.toJson());
    assertThat(markedJson.get("subject_ids").toString()).isEqualTo("[\"cand-7\"]");
    assertThat(markedJson.get("legacy").asBoolean()).isTrue();
    assertThat(PathwayTrace.fromJson(marked.toJson())).isEqualTo(marked);
  }

  @Test
  void subjectIds_blankOrNull_throwsNamingSubjectIds() {
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace(
                        "\"retired\":false}", "\"retired\":false,\"subject_ids\":[\" \"]}")))
        .isEqualTo("subject_ids");
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace(
                        "\"retired\":false}", "\"retired\":false,\"subject_ids\":[null]}")))
        .isEqualTo("subject_ids");
  }

  @Test
  void builder_computesDerivedFieldsAndToBuilderRoundTrips() {
    PathwayTrace full = full();
    assertThat(full.toBuilder().build()).isEqualTo(full);
    PathwayTrace built =
        PathwayTrace.builder("scrum_review", "crates/queryd/src/service.rs")
            .signalClass("LOOPING")
            .createdAt(Instant.parse("2026-05-03T08:07:38Z"))
            .build();
    assertThat(built.pathwayId())
        .isEqualTo(
            PathwayIdentity.pathwayId(
                "scrum_review", "crates/queryd/src/service.rs", Optional.of("LOOPING")));
    assertThat(built.pathwayVec()).isEqualTo(PathwayIdentity.pathwayVec(built));
    assertThat(built.version()).isEqualTo(1);
    assertThat(built.traceUid()).isEmpty();
  }

  @Test
  void fromJson_unknownFields_arePreservedAndWrittenBack() throws Exception {
    String json =
        LEGACY.replace("\"retired\":false}", "\"retired\":false,\"x_rust\":{\"k\":null}}");
    PathwayTrace t = PathwayTrace.fromJson(json);
    assertThat(t.unknownFields()).containsOnlyKeys("x_rust");
    JsonNode written = PathwayJson.MAPPER.readTree(t.toJson());
    assertThat(written.get("x_rust").toString()).isEqualTo("{\"k\":null}");
    assertThat(PathwayTrace.fromJson(t.toJson())).isEqualTo(t);
  }

  @Test
  void fromJson_unknownNestedFields_areIgnored() {
    PathwayTrace t =
        PathwayTrace.fromJson(
            LEGACY.replace("\"accepted\":true}", "\"accepted\":true,\"tokens_used\":42}"));
    assertThat(t.ladderAttempts()).hasSize(1);
  }

  @Test
  void unknownFields_returnedMap_cannotChangeTheTrace() {
    PathwayTrace t =
        PathwayTrace.fromJson(
            LEGACY.replace("\"retired\":false}", "\"retired\":false,\"x\":{\"a\":1}}"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) t.unknownFields().get("x")).put("a", 2);
    assertThat(t.unknownFields().get("x").get("a").asInt()).isEqualTo(1);
    assertThatThrownBy(() -> t.unknownFields().put("y", null))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void fromJson_emptyTaskClass_throwsNamingTaskClass() {
    assertField(() -> PathwayTrace.fromJson(LEGACY.replace("\"scrum_review\"", "\"\"")))
        .isEqualTo("task_class");
  }

  @Test
  void fromJson_blankTaskClass_throwsNamingTaskClass() {
    assertField(() -> PathwayTrace.fromJson(LEGACY.replace("\"scrum_review\"", "\"  \"")))
        .isEqualTo("task_class");
  }

  @Test
  void fromJson_missingTaskClass_throwsNamingTaskClass() {
    assertField(() -> PathwayTrace.fromJson(LEGACY.replace("\"task_class\":\"scrum_review\",", "")))
        .isEqualTo("task_class");
  }

  @Test
  void fromJson_unknownSemanticFlag_throwsNamingSemanticFlags() {
    String json =
        LEGACY.replace(
            "\"retired\":false}", "\"retired\":false,\"semantic_flags\":[\"OffByOne\",\"Typo\"]}");
    assertThatThrownBy(() -> PathwayTrace.fromJson(json))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("Typo")
        .hasMessageContaining("UnitMismatch")
        .hasMessageContaining("semantic_flags[1]")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("semantic_flags");
  }

  @Test
  void fromJson_wrongCaseSemanticFlag_throwsNamingSemanticFlags() {
    String json =
        LEGACY.replace(
            "\"retired\":false}", "\"retired\":false,\"semantic_flags\":[\"off_by_one\"]}");
    assertField(() -> PathwayTrace.fromJson(json)).isEqualTo("semantic_flags");
  }

  @Test
  void fromJson_unknownFingerprintFlag_throwsNamingBugFingerprintsFlag() {
    String json =
        LEGACY.replace(
            "\"retired\":false}",
            "\"retired\":false,\"bug_fingerprints\":[{\"flag\":\"Nope\",\"pattern_key\":\"k\","
                + "\"example\":\"e\",\"occurrences\":1}]}");
    assertField(() -> PathwayTrace.fromJson(json)).isEqualTo("bug_fingerprints.flag");
  }

  @Test
  void fromJson_missingFilePath_throwsNamingFilePath() {
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace("\"file_path\":\"crates/queryd/src/service.rs\",", "")))
        .isEqualTo("file_path");
  }

  @Test
  void fromJson_missingCreatedAt_throwsNamingCreatedAt() {
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace("\"created_at\":\"2026-04-29T05:43:00Z\",", "")))
        .isEqualTo("created_at");
  }

  @Test
  void fromJson_badTimestamp_throwsNamingCreatedAt() {
    assertField(() -> PathwayTrace.fromJson(LEGACY.replace("2026-04-29T05:43:00Z", "yesterday")))
        .isEqualTo("created_at");
  }

  @Test
  void fromJson_malformedPathwayId_throwsNamingPathwayId() {
    String json = LEGACY.replaceFirst("\"pathway_id\":\"[0-9a-f]+\"", "\"pathway_id\":\"ABC\"");
    assertField(() -> PathwayTrace.fromJson(json)).isEqualTo("pathway_id");
  }

  @Test
  void fromJson_versionZero_throwsNamingVersion() {
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace("{\"pathway_id\"", "{\"version\":0,\"pathway_id\"")))
        .isEqualTo("version");
  }

  @Test
  void fromJson_negativeReplayCount_throwsNamingReplayCount() {
    assertField(
            () ->
                PathwayTrace.fromJson(LEGACY.replace("\"replay_count\":2", "\"replay_count\":-1")))
        .isEqualTo("replay_count");
  }

  @Test
  void fromJson_pathwayVecOfWrongLength_throwsNamingPathwayVec() {
    String json =
        LEGACY.replace("\"retired\":false}", "\"retired\":false,\"pathway_vec\":[1.0,0.0]}");
    assertField(() -> PathwayTrace.fromJson(json)).isEqualTo("pathway_vec");
  }

  @Test
  void fromJson_nestedRequiredFieldMissing_throwsNamingNestedField() {
    assertField(() -> PathwayTrace.fromJson(LEGACY.replace("\"model\":\"qwen\",", "")))
        .isEqualTo("ladder_attempts.model");
  }

  @Test
  void fromJson_subPipelineCallNotAnObject_throwsNamingSubPipelineCalls() {
    assertField(
            () ->
                PathwayTrace.fromJson(
                    LEGACY.replace("\"sub_pipeline_calls\":[]", "\"sub_pipeline_calls\":[3]")))
        .isEqualTo("sub_pipeline_calls");
  }

  @Test
  void fromJson_notJson_throwsNamingTrace() {
    assertField(() -> PathwayTrace.fromJson("{\"task_class\":")).isEqualTo("trace");
  }

  @Test
  void constructor_blankTaskClass_throwsNamingTaskClass() {
    PathwayTrace t = full();
    assertField(
            () ->
                new PathwayTrace(
                    t.pathwayId(),
                    t.traceUid(),
                    t.version(),
                    t.parentTraceUid(),
                    t.supersededAt(),
                    t.supersededByTraceUid(),
                    "",
                    t.filePath(),
                    t.signalClass(),
                    t.createdAt(),
                    t.ladderAttempts(),
                    t.kbChunks(),
                    t.observerSignals(),
                    t.bridgeHits(),
                    t.subPipelineCalls(),
                    t.auditConsensus(),
                    t.reducerSummary(),
                    t.finalVerdict(),
                    t.pathwayVec(),
                    t.replayCount(),
                    t.replaysSucceeded(),
                    t.retired(),
                    t.semanticFlags(),
                    t.typeHintsUsed(),
                    t.bugFingerprints(),
                    t.subjectIds(),
                    t.legacy(),
                    t.unknownFields()))
        .isEqualTo("task_class");
  }

  @Test
  void semanticFlag_wireNames_areTheNineOfTheSpec() {
    assertThat(SemanticFlag.values())
        .extracting(SemanticFlag::wireName)
        .containsExactly(
            "UnitMismatch",
            "TypeConfusion",
            "NullableConfusion",
            "OffByOne",
            "StaleReference",
            "PseudoImpl",
            "DeadCode",
            "WarningNoise",
            "BoundaryViolation");
    for (SemanticFlag flag : SemanticFlag.values()) {
      assertThat(SemanticFlag.of(flag.wireName())).isSameAs(flag);
    }
  }

  @Test
  void pathwayVec_array_isCopiedInAndOut() {
    float[] in = new float[32];
    PathwayVec v = PathwayVec.of(in);
    in[0] = 1f;
    v.values()[1] = 1f;
    assertThat(v).isEqualTo(PathwayVec.of(new float[32]));
    assertThat(v.hashCode()).isEqualTo(PathwayVec.of(new float[32]).hashCode());
  }
}
