package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.loci.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PathwayIdentityTest {

  private static String sha256Hex(String s) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void pathwayId_ordinaryInputs_isSha256OfPipeJoinedKey() throws Exception {
    assertThat(
            PathwayIdentity.pathwayId(
                "scrum_review", "crates/queryd/src/service.rs", Optional.of("CONVERGING")))
        .isEqualTo(sha256Hex("scrum_review|crates/queryd|CONVERGING"))
        .hasSize(64)
        .matches("[0-9a-f]{64}");
  }

  @Test
  void pathwayId_signalClassEmptyOptional_hashesLikeEmptyString() throws Exception {
    String absent = PathwayIdentity.pathwayId("t", "a/b/c", Optional.empty());
    String empty = PathwayIdentity.pathwayId("t", "a/b/c", Optional.of(""));
    assertThat(absent).isEqualTo(empty).isEqualTo(sha256Hex("t|a/b|"));
    assertThat(PathwayIdentity.pathwayId("t", "a/b/c", Optional.of("S")))
        .isNotEqualTo(absent)
        .isEqualTo(sha256Hex("t|a/b|S"));
  }

  @Test
  void pathwayId_sameCrateDifferentFiles_sharesId() {
    assertThat(PathwayIdentity.pathwayId("t", "crates/queryd/src/a.rs", Optional.empty()))
        .isEqualTo(PathwayIdentity.pathwayId("t", "crates/queryd/tests/b.rs", Optional.empty()));
  }

  @Test
  void pathwayId_windowsPath_equalsForwardSlashPath() {
    assertThat(PathwayIdentity.pathwayId("t", "crates\\queryd\\src\\a.rs", Optional.of("S")))
        .isEqualTo(PathwayIdentity.pathwayId("t", "crates/queryd/src/a.rs", Optional.of("S")));
  }

  @Test
  void pathwayId_emptyTaskClass_throwsNamingTaskClass() {
    assertThatThrownBy(() -> PathwayIdentity.pathwayId("", "a/b", Optional.empty()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("task_class")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("task_class");
  }

  @Test
  void pathwayId_blankTaskClass_throwsNamingTaskClass() {
    assertThatThrownBy(() -> PathwayIdentity.pathwayId(" \t", "a/b", Optional.empty()))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("task_class");
  }

  @Test
  void filePrefix_specExamples_matchSpec() {
    assertThat(PathwayIdentity.filePrefix("crates/queryd/src/service.rs"))
        .isEqualTo("crates/queryd");
    assertThat(PathwayIdentity.filePrefix("crates/gateway")).isEqualTo("crates/gateway");
    assertThat(PathwayIdentity.filePrefix("README.md")).isEqualTo("README.md");
  }

  @Test
  void filePrefix_zeroSegments_returnsEmptyPath() {
    assertThat(PathwayIdentity.filePrefix("")).isEmpty();
  }

  @Test
  void filePrefix_manySegments_keepsFirstTwo() {
    assertThat(PathwayIdentity.filePrefix("a/b/c/d/e/f.txt")).isEqualTo("a/b");
  }

  @Test
  void filePrefix_windowsSeparators_normalizedToForwardSlash() {
    assertThat(PathwayIdentity.filePrefix("crates\\queryd\\src\\service.rs"))
        .isEqualTo("crates/queryd");
    assertThat(PathwayIdentity.filePrefix("crates\\gateway")).isEqualTo("crates/gateway");
    assertThat(PathwayIdentity.filePrefix("crates\\queryd/src\\x.rs")).isEqualTo("crates/queryd");
    assertThat(PathwayIdentity.filePrefix("C:\\repo\\src\\x.rs")).isEqualTo("C:/repo");
  }

  @Test
  void filePrefix_emptySegments_countLiterally() {
    assertThat(PathwayIdentity.filePrefix("/home/dev/x.rs")).isEqualTo("/home");
    assertThat(PathwayIdentity.filePrefix("a//b/c")).isEqualTo("a/");
    assertThat(PathwayIdentity.filePrefix("crates/")).isEqualTo("crates/");
  }

  private static PathwayTrace trace(
      List<LadderAttempt> ladder,
      List<KbChunkRef> kb,
      List<ObserverSignal> signals,
      List<BugFingerprint> fingerprints,
      Optional<String> signalClass) {
    return new PathwayTrace(
        PathwayIdentity.pathwayId("scrum_review", "crates/queryd/src/a.rs", signalClass),
        "",
        1,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        "scrum_review",
        "crates/queryd/src/a.rs",
        signalClass,
        Instant.parse("2026-05-03T08:07:38Z"),
        ladder,
        kb,
        signals,
        List.of(new BridgeHit("tokio", "1.40", "bridge text")),
        List.of(SubPipelineCall.of("{\"name\":\"extract\"}")),
        Optional.of(new AuditConsensus(true, List.of("audit-model"), List.of("disagree text"))),
        "summary mentions jane@example.com",
        "accepted",
        PathwayVec.of(new float[32]),
        0,
        0,
        false,
        List.of(SemanticFlag.DEAD_CODE),
        List.of(new TypeHint("schema", "Row", "struct Row")),
        fingerprints,
        List.of("subject-1"),
        false,
        Map.of());
  }

  private static LadderAttempt attempt(String model) {
    return new LadderAttempt(0, model, 10, true, Optional.empty());
  }

  private static KbChunkRef chunk(String doc) {
    return new KbChunkRef(doc, "c", 0.5, 0);
  }

  private static ObserverSignal signal(String label) {
    return new ObserverSignal(label, 0, List.of());
  }

  private static BugFingerprint fingerprint(SemanticFlag flag) {
    return new BugFingerprint(flag, "pk", "ex", 1);
  }

  @Test
  void metadataTokens_populatedTrace_isExactlyTheSpecList() {
    PathwayTrace t =
        trace(
            List.of(attempt("qwen"), attempt("claude")),
            List.of(chunk("adr.md")),
            List.of(signal("LOOPING")),
            List.of(fingerprint(SemanticFlag.OFF_BY_ONE)),
            Optional.of("CONVERGING"));
    assertThat(PathwayIdentity.metadataTokens(t))
        .containsExactly(
            "task_class:scrum_review",
            "file_prefix:crates/queryd",
            "signal_class:CONVERGING",
            "model:qwen",
            "model:claude",
            "kb_doc:adr.md",
            "signal:LOOPING",
            "flag:OffByOne");
  }

  @Test
  void metadataTokens_repeatedEntries_yieldOneTokenEach() {
    PathwayTrace t =
        trace(
            List.of(attempt("qwen"), attempt("qwen")),
            List.of(chunk("d"), chunk("d"), chunk("d")),
            List.of(signal("S"), signal("S")),
            List.of(fingerprint(SemanticFlag.DEAD_CODE), fingerprint(SemanticFlag.DEAD_CODE)),
            Optional.empty());
    assertThat(PathwayIdentity.metadataTokens(t)).filteredOn("model:qwen"::equals).hasSize(2);
    assertThat(PathwayIdentity.metadataTokens(t)).filteredOn("kb_doc:d"::equals).hasSize(3);
    assertThat(PathwayIdentity.metadataTokens(t)).filteredOn("signal:S"::equals).hasSize(2);
    assertThat(PathwayIdentity.metadataTokens(t)).filteredOn("flag:DeadCode"::equals).hasSize(2);
    assertThat(PathwayIdentity.metadataTokens(t)).contains("signal_class:");
  }

  @Test
  void metadataTokens_freeTextAndTimestamps_areNeverTokens() {
    PathwayTrace t = trace(List.of(), List.of(), List.of(), List.of(), Optional.empty());
    assertThat(PathwayIdentity.metadataTokens(t))
        .containsExactly("task_class:scrum_review", "file_prefix:crates/queryd", "signal_class:")
        .noneMatch(tok -> tok.contains("jane@example.com"))
        .noneMatch(tok -> tok.contains("accepted"))
        .noneMatch(tok -> tok.contains("2026"))
        .noneMatch(tok -> tok.contains("tokio") || tok.contains("Row") || tok.contains("extract"))
        .noneMatch(tok -> tok.contains("DeadCode"));
  }

  @Test
  void pathwayVec_repeatedToken_countsEveryTime() {
    PathwayTrace once =
        trace(List.of(attempt("qwen")), List.of(), List.of(), List.of(), Optional.empty());
    PathwayTrace twice =
        trace(
            List.of(attempt("qwen"), attempt("qwen")),
            List.of(),
            List.of(),
            List.of(),
            Optional.empty());
    assertThat(PathwayIdentity.pathwayVec(once)).isNotEqualTo(PathwayIdentity.pathwayVec(twice));
  }

  @Test
  void pathwayVec_anyTrace_isUnitLengthWith32Buckets() {
    PathwayTrace t =
        trace(
            List.of(attempt("a"), attempt("b")),
            List.of(chunk("d")),
            List.of(signal("S")),
            List.of(fingerprint(SemanticFlag.UNIT_MISMATCH)),
            Optional.of("X"));
    float[] v = PathwayIdentity.pathwayVec(t).values();
    double sum = 0;
    for (float f : v) {
      assertThat(f).isGreaterThanOrEqualTo(0f);
      sum += (double) f * f;
    }
    assertThat(v).hasSize(32);
    assertThat(sum).isCloseTo(1.0, within(1e-6));
  }

  @Test
  void pathwayVec_freeTextChanged_isUnchanged() {
    PathwayTrace t =
        trace(List.of(attempt("a")), List.of(), List.of(), List.of(), Optional.empty());
    PathwayTrace other =
        PathwayTrace.fromJson(
            t.toJson()
                .replace("summary mentions jane@example.com", "other")
                .replace("\"accepted\"", "\"rejected\"")
                .replace("2026-05-03T08:07:38Z", "2030-01-01T00:00:00Z"));
    assertThat(PathwayIdentity.pathwayVec(other)).isEqualTo(PathwayIdentity.pathwayVec(t));
  }

  @Test
  void bucketOf_token_isFirstFourBytesBigEndianUnsignedMod32() throws Exception {
    for (String token : List.of("task_class:scrum_review", "model:qwen", "flag:OffByOne", "é")) {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      long n = Long.parseLong(HexFormat.of().formatHex(h, 0, 4), 16);
      assertThat(PathwayIdentity.bucketOf(token)).isEqualTo((int) (n % 32));
    }
  }
}
