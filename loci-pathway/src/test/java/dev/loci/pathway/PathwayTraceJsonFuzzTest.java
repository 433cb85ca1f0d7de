package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing of the pathway trace wire form, the body of the pathway routes ({@link
 * PathwayTrace#fromJson}). Invariants: a trace or {@link InvalidRequestException} naming a field,
 * nothing else; its message speaks JSON and never names a Java type (issue 14: a detail said {@code
 * java.util.ArrayList<dev.loci.pathway.LadderAttempt>}); linear time budget ({@link FuzzBudget}).
 * See docs/fuzzing.md.
 */
class PathwayTraceJsonFuzzTest {
  @Test
  void fromJson_unclosedObject_problemNamesLineAndColumnNotAJacksonSetting() {
    assertThatThrownBy(() -> PathwayTrace.fromJson("{\"task_class\":\"t\",\"x\":{\"a\":1}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("line 1, column")
        .hasMessageNotContaining("`")
        .hasMessageNotContaining("StreamReadFeature");
  }

  @FuzzTest(maxDuration = "10s")
  void fromJson_fuzzedBody_traceOrProblemNamingNoJavaType(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    long start = FuzzBudget.start();
    try {
      PathwayTrace.fromJson(text);
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isNotEmpty(); // a member the client named " " is named " "
      assertThat(e.getMessage()).isNotBlank();
      // a Java name in the message must come from the client's own text (a member named
      // "file_`ath", seed crash-8457f0...; a value "ccreajava.", seed crash-6843c4...), never
      // from the parser or the mapper
      for (String javaName : new String[] {"java.", "dev.loci", "`", "StreamReadFeature"}) {
        if (e.getMessage().contains(javaName)) {
          assertThat(text).as(e.getMessage()).contains(javaName);
        }
      }
    }
    FuzzBudget.assertLinear(start, bytes.length);
  }
}
