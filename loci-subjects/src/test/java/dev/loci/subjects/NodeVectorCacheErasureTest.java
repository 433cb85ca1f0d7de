package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Erasing a subject also erases the embedding vectors of their nodes from the data directory's
 * vector cache (the cache keys a vector by the SHA-256 of the text, and a vector can be inverted
 * into text), whether the erasing process holds the cache open or not; other vectors stay cached.
 */
class NodeVectorCacheErasureTest {
  static final Namespace NS = Namespace.of("acme.notes");
  static final String SECRET = "Alice keeps her spare key under the blue flowerpot";
  static final String OTHER = "the loading dock opens at six";

  @TempDir Path dir;

  private CachingEmbeddingProvider cache() {
    HashingEmbeddingProvider h = HashingEmbeddingProvider.create();
    return CachingEmbeddingProvider.open(
        h, CachingEmbeddingProvider.directory(dir).resolve(h.modelId() + ".bin"));
  }

  @ParameterizedTest(name = "cache open in the erasing process: {0}")
  @ValueSource(booleans = {true, false})
  void erasure_removesTheSubjectsVectorsFromTheCache(boolean cacheOpen) throws IOException {
    try (Loci loci = Loci.builder().dataDir(dir).open();
        CachingEmbeddingProvider cache = cache()) {
      RecallMemory recall = RecallMemory.of(loci, cache);
      recall.putNode(
          NS, MemoryNode.builder("n-a", "note", SECRET).subjectIds(List.of("alice-7")).build());
      recall.putNode(NS, MemoryNode.builder("n-b", "note", OTHER).build());
      recall.embed(NS, RecallMemory.Progress.NONE);
    }
    assertThat(cacheHoldsVectorOf(SECRET)).as("cached before").isTrue();

    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      if (cacheOpen) {
        try (CachingEmbeddingProvider cache = cache()) {
          RecallMemory.of(loci, cache);
          erase(loci);
        }
      } else {
        RecallMemory.of(loci, HashingEmbeddingProvider.create());
        erase(loci);
      }
    }

    assertThat(cacheHoldsVectorOf(SECRET)).as("cached after erasure").isFalse();
    try (CachingEmbeddingProvider cache = cache()) {
      cache.embedDocuments(List.of(OTHER));
      assertThat(cache.hits()).as("the other node's vector stays cached").isEqualTo(1);
    }
  }

  @Test
  void erasure_withNoCache_isUnaffected() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      recall.putNode(
          NS, MemoryNode.builder("n-a", "note", SECRET).subjectIds(List.of("alice-7")).build());
      erase(loci);
      assertThat(recall.node(NS, "n-a").orElseThrow().content()).isEqualTo("[erased]");
    }
    assertThat(CachingEmbeddingProvider.directory(dir)).doesNotExist();
  }

  private static void erase(Loci loci) {
    Subjects.of(loci)
        .erase(
            new LegalCapability("dpo@acme"),
            NamespaceScope.of("acme.*"),
            NS,
            "alice-7",
            "request 12");
  }

  private boolean cacheHoldsVectorOf(String text) throws IOException {
    HashingEmbeddingProvider h = HashingEmbeddingProvider.create();
    float[] v = h.embed(text);
    ByteBuffer vec = ByteBuffer.allocate(4 * v.length);
    for (float x : v) {
      vec.putFloat(x);
    }
    Path file = CachingEmbeddingProvider.directory(dir).resolve(h.modelId() + ".bin");
    return SubjectsTest.indexOf(Files.readAllBytes(file), vec.array()) >= 0;
  }
}
