package dev.loci.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * bge-small-en-v1.5 quantized here at load ({@link Int8Quantizer}): the rewritten model runs in
 * ONNX Runtime and its vectors stay close to the float model's, closer than the published quantized
 * model's.
 */
class Int8QuantizerTest {
  private static final List<String> TEXTS =
      List.of(
          "We adopted a puppy last weekend, a golden retriever from the shelter.",
          "The quarterly report is due before the board meeting on Thursday.",
          "I finally fixed the leaking kitchen tap after three attempts.",
          "Caroline went to the LGBTQ support group yesterday and felt welcome.",
          "My sister is moving to Lisbon in May for a job at a design studio.",
          "The enzyme assay failed again because the buffer was too acidic.",
          "Can you send me the invoice export before the audit next week?",
          "We hiked up to the lake at sunrise and saw two eagles.",
          "Melanie painted a sunset over the ocean for her children.",
          "The landlord promised to replace the windows before winter.");

  private static byte[] floatModel() throws IOException {
    try (InputStream in =
        Int8QuantizerTest.class.getResourceAsStream(OnnxModel.BGE_SMALL.modelResource())) {
      assertThat(in).as("bge-small on the class path").isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void wire_writesEveryFieldItReadsBackToTheSameBytes() throws IOException {
    byte[] model = floatModel();
    ProtoWire.Writer out = new ProtoWire.Writer(model.length);
    for (ProtoWire.Field f : ProtoWire.parse(model, 0, model.length)) {
      if (f.number() == 7) {
        ProtoWire.Writer graph = new ProtoWire.Writer(f.len());
        f.message().forEach(graph::field); // one level down as well
        out.bytes(7, graph.toBytes());
      } else {
        out.field(f);
      }
    }

    assertThat(out.toBytes()).isEqualTo(model);
  }

  @Test
  void quantize_rewritesEveryWeightProduct_andRefusesWhatIsNoModel() throws IOException {
    byte[] model = floatModel();
    Int8Quantizer.Quantized q = Int8Quantizer.quantize(model);

    // 12 layers of query, key, value, attention output and the two feed-forward products; the
    // two attention products per layer multiply activations and stay in float
    assertThat(q.products()).isEqualTo(72);
    assertThat(q.model().length).isLessThan(model.length * 6 / 10);
    assertThatThrownBy(() -> Int8Quantizer.quantize(new byte[] {8, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no graph");
    assertThatThrownBy(() -> Int8Quantizer.quantize(new byte[] {58, 9, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runs past");
  }

  @Test
  void vectors_closeToTheFloatModel_closerThanThePublishedQuantizedModel() {
    try (OnnxEmbeddingProvider full = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL, 16);
        OnnxEmbeddingProvider int8 = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL_INT8, 16);
        OnnxEmbeddingProvider published = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL_Q, 16)) {
      List<float[]> f = full.embedDocuments(TEXTS);
      List<float[]> i = int8.embedDocuments(TEXTS);
      List<float[]> p = published.embedDocuments(TEXTS);
      double int8Sum = 0;
      double publishedSum = 0;
      for (int t = 0; t < TEXTS.size(); t++) {
        assertThat(OnnxEmbeddingProviderTest.norm(i.get(t))).isCloseTo(1.0, within(1e-5));
        double c = OnnxEmbeddingProviderTest.cosine(f.get(t), i.get(t));
        assertThat(c).as("cosine of text %d with the float model's", t).isGreaterThan(0.99);
        int8Sum += c;
        publishedSum += OnnxEmbeddingProviderTest.cosine(f.get(t), p.get(t));
      }
      assertThat(int8Sum / TEXTS.size()).isGreaterThan(publishedSum / TEXTS.size());
      assertThat(int8.modelId()).isEqualTo("bge-small-en-v1.5-int8");
      assertThat(Embeddings.named("bge-small-int8").modelId()).isEqualTo("bge-small-en-v1.5-int8");
    }
  }
}
