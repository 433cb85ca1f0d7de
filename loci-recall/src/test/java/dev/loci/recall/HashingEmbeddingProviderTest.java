package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The dependency-free hashing embedding. */
class HashingEmbeddingProviderTest {
  private final HashingEmbeddingProvider p = HashingEmbeddingProvider.create();

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void vectors_areUnitLength_of384Dimensions_andDeterministic() {
    float[] v = p.embed("Restart the payment adapter pods");

    assertThat(p.dimension()).isEqualTo(384);
    assertThat(p.modelId()).isEqualTo("hashing-384-v1");
    assertThat(v).hasSize(384);
    assertThat(dot(v, v)).isCloseTo(1.0, within(1e-6));
    assertThat(p.embedDocuments(List.of("Restart the payment adapter pods")).get(0)).isEqualTo(v);
    assertThat(p.embedQuery("Restart the payment adapter pods")).isEqualTo(v);
  }

  @Test
  void fnv1a_matchesTheReferenceValues() {
    // FNV-1a 64 test vectors: "" and "a"
    assertThat(HashingEmbeddingProvider.fnv1a("")).isEqualTo(0xcbf29ce484222325L);
    assertThat(HashingEmbeddingProvider.fnv1a("a")).isEqualTo(0xaf63dc4c8601ec8cL);
  }

  @Test
  void similarity_followsWordOverlap_caseAndFunctionWordsIgnored() {
    float[] q = p.embed("payment adapter restart");

    double same = dot(q, p.embed("The PAYMENT adapter, restart it"));
    double some = dot(q, p.embed("payment gateway status"));

    assertThat(same).isGreaterThan(some);
    assertThat(some).isGreaterThan(0);
    assertThat(HashingEmbeddingProvider.words("The PAYMENT adapter, restart it"))
        .containsExactly("payment", "adapter", "restart");
  }

  @Test
  void aTextWithoutWords_isTheZeroVector() {
    assertThat(dot(p.embed("!!! ... the of"), p.embed("!!! ... the of"))).isZero();
  }
}
