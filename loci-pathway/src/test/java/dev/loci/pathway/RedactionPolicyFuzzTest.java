package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.InvalidRequestException;
import java.util.List;

/**
 * Coverage-guided fuzzing of redaction: the built-in rules and a fuzzed user rule over fuzzed text.
 * Invariants: the built-in policy never throws; a user rule is accepted or refused with {@link
 * InvalidRequestException} naming {@code name}, {@code regex} or {@code rules}; an accepted rule
 * redacts or stops with {@link InvalidRequestException} naming {@code redaction} (its step budget);
 * the work stays within a generous linear budget ({@link FuzzBudget}), so no rule can hold a write
 * for long (issue 14 finding 2). See docs/fuzzing.md.
 */
class RedactionPolicyFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void redact_fuzzedRuleAndText_linearAndOnlyDocumentedRefusals(FuzzedDataProvider data) {
    String regex = data.consumeString(48);
    String text = data.consumeRemainingAsString();
    long start = FuzzBudget.start();
    RedactionPolicy.Redacted builtIn = RedactionPolicy.defaults().redact(text);
    assertThat(builtIn.count()).isNotNegative();
    try {
      RedactionPolicy user = RedactionPolicy.of(List.of(new RedactionPolicy.Rule("fuzz", regex)));
      RedactionPolicy.Redacted r = user.redact(text);
      assertThat(r.count()).isNotNegative();
      if (r.count() == 0) {
        assertThat(r.text()).isEqualTo(text);
      }
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isIn("name", "regex", "rules", "redaction");
      assertThat(e.getMessage()).isNotBlank();
    }
    FuzzBudget.assertLinear(start, regex.length() + text.length());
  }
}
