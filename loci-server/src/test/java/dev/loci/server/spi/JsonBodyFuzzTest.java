package dev.loci.server.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Coverage-guided fuzzing of request-body parsing shared by every route family ({@link JsonBody}:
 * parse, under tight shape limits and the parser's own, then each typed accessor on each member).
 * Invariants: the only exception is an {@link HttpProblem} with a 4xx status and a detail; the work
 * stays within a generous linear budget (2 s plus 100 µs per input byte). See docs/fuzzing.md.
 */
class JsonBodyFuzzTest {

  @FuzzTest(maxDuration = "10s")
  void parse_fuzzedBody_acceptsOrAnswers4xx(FuzzedDataProvider data) {
    String text = data.consumeRemainingAsString();
    long start = FuzzBudget.start();
    try {
      // tight shape limits: depth, string and array bounds are answered as 4xx problems too
      JsonBody.parse(text, new JsonBody.Limits(3, 16, 4));
    } catch (HttpProblem e) {
      assertProblem(e);
    }
    JsonBody body;
    try {
      body = JsonBody.parse(text);
    } catch (HttpProblem e) {
      assertProblem(e);
      return;
    }
    List<String> names = new ArrayList<>(List.of("content", "tags", "uid", "limit", "query"));
    names.addAll(firstMemberName(body));
    for (String name : names) {
      List<Runnable> accessors =
          List.of(
              () -> body.string(name),
              () -> body.strings(name),
              () -> body.bool(name),
              () -> body.integer(name));
      for (Runnable accessor : accessors) {
        try {
          accessor.run();
        } catch (HttpProblem e) {
          assertProblem(e);
        }
      }
    }
    FuzzBudget.assertLinear(start, text.getBytes(StandardCharsets.UTF_8).length);
  }

  /** The first member's name, read back from the problem that {@code allowOnly(none)} raises. */
  private static List<String> firstMemberName(JsonBody body) {
    List<String> names = new ArrayList<>();
    try {
      body.allowOnly(Set.of());
    } catch (HttpProblem e) {
      assertProblem(e);
      e.field().ifPresent(names::add);
    }
    return names;
  }

  private static void assertProblem(HttpProblem e) {
    assertThat(e.status()).isBetween(400, 499);
    assertThat(e.detail()).isNotBlank();
  }
}
