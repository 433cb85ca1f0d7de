package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.pathway.internal.PathwayJson;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the Java identity algorithms against {@code golden/vectors.json}, which {@code
 * golden/generate.py} computed from the spec's Python pseudocode.
 */
class PathwayGoldenVectorsTest {

  static JsonNode golden() throws IOException {
    try (InputStream in =
        PathwayGoldenVectorsTest.class.getResourceAsStream("/golden/vectors.json")) {
      assertThat(in).as("golden/vectors.json on the test class path").isNotNull();
      return PathwayJson.MAPPER.readTree(in);
    }
  }

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    golden().get("cases").forEach(c -> out.add(Arguments.of(c.get("name").asText(), c)));
    return out.stream();
  }

  @Test
  void goldenFile_loaded_hasADozenCasesOrMore() throws IOException {
    assertThat(golden().get("cases").size()).isGreaterThanOrEqualTo(12);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void identity_goldenCase_matchesPythonReference(String name, JsonNode c) {
    JsonNode expected = c.get("expected");
    JsonNode wire = c.get("trace");
    String taskClass = wire.get("task_class").asText();
    String filePath = wire.get("file_path").asText();
    Optional<String> signalClass =
        wire.hasNonNull("signal_class")
            ? Optional.of(wire.get("signal_class").asText())
            : Optional.empty();

    assertThat(PathwayIdentity.filePrefix(filePath))
        .isEqualTo(expected.get("file_prefix").asText());
    assertThat(PathwayIdentity.pathwayId(taskClass, filePath, signalClass))
        .isEqualTo(expected.get("pathway_id").asText());

    PathwayTrace trace = PathwayTrace.fromJson(wire.toString());
    assertThat(trace.pathwayId()).isEqualTo(expected.get("pathway_id").asText());
    List<String> tokens = new ArrayList<>();
    expected.get("tokens").forEach(t -> tokens.add(t.asText()));
    assertThat(PathwayIdentity.metadataTokens(trace)).containsExactlyElementsOf(tokens);

    float[] vec = PathwayIdentity.pathwayVec(trace).values();
    JsonNode want = expected.get("pathway_vec");
    assertThat(want.size()).isEqualTo(PathwayVec.DIMENSION);
    for (int i = 0; i < PathwayVec.DIMENSION; i++) {
      assertThat((double) vec[i])
          .as("bucket %d", i)
          .isCloseTo(want.get(i).asDouble(), within(1e-6));
    }
    assertThat(trace.pathwayVec()).isEqualTo(PathwayIdentity.pathwayVec(trace));
  }
}
