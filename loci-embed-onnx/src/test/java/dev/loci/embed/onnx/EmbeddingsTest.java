package dev.loci.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddingsTest {
  @TempDir Path data;

  @Test
  void named_onnxAndHashing_theSharedModelAndTheHashingProvider() {
    assertThat(Embeddings.named("onnx")).isSameAs(OnnxEmbeddingProvider.shared());
    assertThat(Embeddings.named("hashing")).isSameAs(HashingEmbeddingProvider.create());
    assertThat(Embeddings.DEFAULT).isEqualTo("bge-small");
  }

  @Test
  void model_eachNameOfOneOnnxModel_andNoneForHashingOrTheSplitProvider() {
    assertThat(Embeddings.model("onnx")).contains(OnnxModel.MINILM);
    assertThat(Embeddings.model("bge-small")).contains(OnnxModel.BGE_SMALL);
    assertThat(Embeddings.model("bge-small-q")).contains(OnnxModel.BGE_SMALL_Q);
    assertThat(Embeddings.model("bge-small-int8")).contains(OnnxModel.BGE_SMALL_INT8);
    assertThat(Embeddings.model("bge-small-qd")).isEmpty();
    assertThat(Embeddings.model("hashing")).isEmpty();
    assertThat(Embeddings.model("bert")).isEmpty();
  }

  @Test
  void named_unknown_refusedNamingTheFieldAndTheChoices() {
    assertThatThrownBy(() -> Embeddings.named("bert"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("embedding")
        .hasMessageContaining(
            "expected one of [onnx, bge-small, bge-small-q, bge-small-qd, bge-small-int8, hashing], found 'bert'");
  }

  @Test
  void open_cachesUnderTheDataDirectoryByModelId() {
    try (CachingEmbeddingProvider p = Embeddings.open("hashing", data)) {
      p.embedDocuments(List.of("a clause"));

      assertThat(p.file()).isEqualTo(data.resolve("cache/embeddings/hashing-384-v1.bin"));
      assertThat(p.file()).isRegularFile();
    }
    try (CachingEmbeddingProvider p = Embeddings.open("hashing", data)) {
      assertThat(p.size()).isEqualTo(1);
    }
  }

  @Test
  void named_bgeSmallQd_quantizedDocumentsFullQueriesUnderAnIdOfItsOwn() {
    SplitEmbeddingProvider p = (SplitEmbeddingProvider) Embeddings.named("bge-small-qd");

    assertThat(p.documents()).isSameAs(OnnxEmbeddingProvider.shared(OnnxModel.BGE_SMALL_Q));
    assertThat(p.queries()).isSameAs(OnnxEmbeddingProvider.shared(OnnxModel.BGE_SMALL));
    assertThat(p.modelId())
        .isEqualTo("bge-small-en-v1.5-q-documents")
        .isNotEqualTo(OnnxModel.BGE_SMALL_Q.id())
        .isNotEqualTo(OnnxModel.BGE_SMALL.id());
    try (CachingEmbeddingProvider cached = Embeddings.open("bge-small-qd", data)) {
      assertThat(cached.file())
          .isEqualTo(data.resolve("cache/embeddings/bge-small-en-v1.5-q-documents.bin"));
    }
  }

  @Test
  void open_onnx_doesNotLoadTheModelUntilATextMisses() {
    try (CachingEmbeddingProvider p = Embeddings.open("onnx", data)) {
      assertThat(p.file()).isEqualTo(data.resolve("cache/embeddings/all-minilm-l6-v2.bin"));
      assertThat(p.dimension()).isEqualTo(384);
      assertThat(p.embedDocuments(List.of())).isEmpty();
      assertThat(OnnxEmbeddingProvider.shared().loaded()).isFalse();
    }
  }
}
