package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProperNounsTest {
  private static final List<String> TEXTS =
      List.of(
          "Yesterday I met Priya at the Riverside Library. We talked about New York.",
          "Priya said the library closes early on Saturday in May.",
          "Great news! My sister moved to New York last week.",
          "The audit from Halvorsen Bank starts next month, says Priya.",
          "Halvorsen Bank wants the report. Great, another report.",
          "I'm tired. Yesterday was long and great.");

  @Test
  void learn_capitalizedMidSentenceMoreThanLowercase_isANameWord() {
    ProperNouns names = ProperNouns.learn(TEXTS);

    assertThat(names.isNameWord("Priya")).isTrue();
    assertThat(names.isNameWord("york")).isTrue();
    assertThat(names.isNameWord("halvorsen")).isTrue();
    // capitalized only where a sentence starts, or lowercase mid-sentence
    assertThat(names.isNameWord("Yesterday")).isFalse();
    assertThat(names.isNameWord("great")).isFalse();
    // capitalized once mid-sentence ("Riverside Library"), lowercase once: no majority
    assertThat(names.isNameWord("library")).isFalse();
  }

  @Test
  void find_adjacentNameWordsFormOneName_daysMonthsAndPronounNever() {
    ProperNouns names = ProperNouns.learn(TEXTS);

    assertThat(
            names.find("Yesterday I met Priya at the Riverside Library. We talked about New York."))
        .containsExactly("priya", "riverside", "new york");
    assertThat(names.find("Priya said the library closes early on Saturday in May."))
        .containsExactly("priya");
    assertThat(names.find("The audit from Halvorsen Bank starts next month, says Priya."))
        .containsExactly("halvorsen bank", "priya");
  }

  @Test
  void find_sentenceInitialNameWord_isFoundByEvidenceFromElsewhere() {
    ProperNouns names = ProperNouns.learn(TEXTS);

    assertThat(names.find("Halvorsen Bank wants the report. Great, another report."))
        .containsExactly("halvorsen bank");
    assertThat(names.find("Priya's car broke down; Yesterday's plan failed."))
        .containsExactly("priya");
  }

  @Test
  void find_wordNeverSeenInLearning_isNoName() {
    ProperNouns names = ProperNouns.learn(TEXTS);

    assertThat(names.find("Then Marcus phoned from Oslo.")).isEmpty();
    assertThat(ProperNouns.learn(List.of()).find("Priya went to New York.")).isEmpty();
  }
}
