package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.InvalidRequestException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Coverage-guided fuzzing of redaction: the built-in rules and a user rule over fuzzed text.
 * Invariants: the built-in policy never throws and redacts exactly what a plain regex scan of the
 * same rules does (it tries each rule only where a match can begin); a user rule is accepted or
 * refused with {@link InvalidRequestException} naming {@code name}, {@code regex} or {@code rules};
 * an accepted rule redacts or stops with {@link InvalidRequestException} naming {@code redaction}
 * (its step budget); the work stays within a generous linear budget ({@link FuzzBudget}), so no
 * rule can hold a write for long (issue 14 finding 2). See docs/fuzzing.md.
 */
class RedactionPolicyFuzzTest {
  /**
   * User rules, benign and catastrophic. Not fuzzed themselves: compiling a fuzzed regex trips
   * Jazzer's regex-injection sanitizer by design (a user rule is a regex an operator wrote; the
   * guard is the step budget and the probes at set time, which this target exercises).
   */
  private static final String[] RULES = {
    "[a-z]+@[a-z]+\\.com",
    "[0-9]{3}[ -][0-9]{4}",
    "(a+)+$",
    "(x|x)*y",
    "(\\w+\\s?)*$",
    "(.*a){12}",
    "cand_[0-9]+",
    "([a-z]+[0-9]*)+@"
  };

  /** The built-in rules as user rules: a plain {@code Matcher.find} over the whole text. */
  private static final RedactionPolicy FULL_SCAN =
      RedactionPolicy.of(
          List.of(
              new RedactionPolicy.Rule("email", RedactionPolicy.EMAIL.regex() + "(?:)"),
              new RedactionPolicy.Rule("phone", RedactionPolicy.PHONE.regex() + "(?:)"),
              new RedactionPolicy.Rule(
                  "candidate_id", RedactionPolicy.CANDIDATE_ID.regex() + "(?:)")));

  /** Each rule's policy, or empty where setting it is refused (its probes backtrack). */
  private static final List<Optional<RedactionPolicy>> POLICIES =
      Arrays.stream(RULES).map(RedactionPolicyFuzzTest::policy).toList();

  private static Optional<RedactionPolicy> policy(String regex) {
    try {
      return Optional.of(RedactionPolicy.of(List.of(new RedactionPolicy.Rule("fuzz", regex))));
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isIn("regex", "rules");
      return Optional.empty();
    }
  }

  @FuzzTest(maxDuration = "10s")
  void redact_fuzzedRuleAndText_linearAndOnlyDocumentedRefusals(FuzzedDataProvider data) {
    int rule = data.consumeInt(0, RULES.length - 1);
    String text = data.consumeRemainingAsString();
    long start = FuzzBudget.start();
    RedactionPolicy.Redacted builtIn = RedactionPolicy.defaults().redact(text);
    assertThat(builtIn.count()).isNotNegative();
    assertThat(builtIn).isEqualTo(FULL_SCAN.redact(text));
    assertThat(POLICIES.stream().filter(Optional::isPresent)).isNotEmpty();
    try {
      POLICIES
          .get(rule)
          .ifPresent(
              user -> {
                RedactionPolicy.Redacted r = user.redact(text);
                assertThat(r.count()).isNotNegative();
                if (r.count() == 0) {
                  assertThat(r.text()).isEqualTo(text);
                }
              });
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isEqualTo("redaction");
      assertThat(e.getMessage()).isNotBlank();
    }
    FuzzBudget.assertLinear(start, text.length());
  }
}
