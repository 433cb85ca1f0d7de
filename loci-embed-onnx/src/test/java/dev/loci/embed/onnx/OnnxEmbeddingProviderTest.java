package dev.loci.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.util.Utils;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Loads the model once for the class: about a second on two cores. */
class OnnxEmbeddingProviderTest {
  private static OnnxEmbeddingProvider model;

  @BeforeAll
  static void load() {
    model = OnnxEmbeddingProvider.create(4);
    model.load();
  }

  @AfterAll
  static void close() {
    model.close();
  }

  @Test
  void embed_sentence_unitVectorOf384() {
    float[] v = model.embedQuery("The supplier must deliver the goods within thirty days.");

    assertThat(v).hasSize(384);
    assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
    assertThat(model.dimension()).isEqualTo(384);
    assertThat(model.modelId()).isEqualTo("all-minilm-l6-v2");
  }

  @Test
  void embed_paraphrase_closerThanUnrelatedSentence() {
    List<float[]> v =
        model.embedDocuments(
            List.of(
                "The buyer may terminate the agreement if the supplier breaches it.",
                "If the vendor violates the contract, the purchaser can end it.",
                "Restart the payment adapter pods and watch the error rate."));

    double paraphrase = cosine(v.get(0), v.get(1));
    double unrelated = cosine(v.get(0), v.get(2));
    assertThat(paraphrase).isGreaterThan(0.5);
    assertThat(paraphrase).isGreaterThan(unrelated + 0.3);
  }

  @Test
  void embed_synonymsWithoutSharedWords_closerThanUnrelated() {
    float[] query = model.embedQuery("How do I fix a broken database?");
    float[] close = model.embedQuery("Repairing a corrupted SQL server");
    float[] far = model.embedQuery("My cat enjoys sleeping in the sun");

    assertThat(cosine(query, close)).isGreaterThan(cosine(query, far));
  }

  @Test
  void embedDocuments_batchOfMixedLengths_equalsEachTextAlone() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      texts.add("Clause " + i + ": " + "the party shall notify the other in writing. ".repeat(i));
    }
    texts.add("");

    List<float[]> batched = model.embedDocuments(texts);

    assertThat(batched).hasSize(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      float[] alone = model.embedDocuments(List.of(texts.get(i))).get(0);
      assertThat(batched.get(i)).as("text %d", i).containsExactly(alone, within(1e-5f));
      assertThat(norm(batched.get(i))).isCloseTo(1.0, within(1e-5));
    }
  }

  @Test
  void embed_sameTextTwice_sameVector() {
    String text = "Escalate to the on-call lead if the rollback fails.";

    assertThat(model.embedQuery(text)).containsExactly(model.embedQuery(text));
  }

  @Test
  void embed_textLongerThanTheModelTakes_isTruncatedNotRefused() {
    float[] v = model.embedQuery("word ".repeat(5000));

    assertThat(v).hasSize(384);
    assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
  }

  @Test
  void tokenize_unpaddedAndCutAt256() {
    assertThat(model.tokenCount("Restart the pods.")).isEqualTo(6);
    assertThat(model.tokenCount("word ".repeat(5000))).isEqualTo(256);
  }

  @Test
  void embedDocuments_empty_empty() {
    assertThat(model.embedDocuments(List.of())).isEmpty();
  }

  @Test
  void create_afterLoad_djlIsOfflineAndDoesNotReportUsage() {
    assertThat(Utils.isOfflineMode()).isTrue();
    assertThat(Utils.getEnvOrSystemProperty("OPT_OUT_TRACKING")).isEqualTo("true");
  }

  @Test
  void create_batchSizeZero_refused() {
    assertThatThrownBy(() -> OnnxEmbeddingProvider.create(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
  }

  @Test
  void create_loadsNothingUntilTheFirstText() {
    try (OnnxEmbeddingProvider p = OnnxEmbeddingProvider.create()) {
      assertThat(p.loaded()).isFalse();
      assertThat(p.embedDocuments(List.of())).isEmpty();
      assertThat(p.loaded()).isFalse();
    }
    assertThat(model.loaded()).isTrue();
  }

  @Test
  void close_thenEmbed_refused() {
    OnnxEmbeddingProvider p = OnnxEmbeddingProvider.create();
    p.close();

    assertThatThrownBy(() -> p.embedQuery("x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void close_shared_refused() {
    assertThatThrownBy(() -> OnnxEmbeddingProvider.shared().close())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  static double cosine(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s / (norm(a) * norm(b));
  }

  static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x * x;
    }
    return Math.sqrt(s);
  }
}
