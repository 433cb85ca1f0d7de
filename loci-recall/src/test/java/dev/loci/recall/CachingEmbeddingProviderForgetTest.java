package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Erasing vectors from the cache: neither the vector nor the text's hash stays anywhere in the
 * file, other records stay usable, and a reopened file neither serves nor complains about the
 * erased records.
 */
class CachingEmbeddingProviderForgetTest {
  private static final HashingEmbeddingProvider HASHING = HashingEmbeddingProvider.create();
  private static final String SECRET = "Alice's pin is 4417, she told the agent";
  private static final List<String> OTHERS = List.of("the pump runs at 40 bar", "valve 7 leaks");

  @TempDir Path dir;

  private Path file() {
    return CachingEmbeddingProvider.directory(dir).resolve(HASHING.modelId() + ".bin");
  }

  private void fill() {
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(HASHING, file())) {
      c.embedDocuments(List.of(OTHERS.get(0), SECRET, OTHERS.get(1)));
    }
  }

  @Test
  void forget_openCache_leavesNoByteOfTheVectorOrHash_andKeepsTheOthers() throws Exception {
    fill();
    assertThat(holdsTrace(SECRET)).as("before").isTrue();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(HASHING, file())) {
      assertThat(c.forget(List.of(SECRET, "never cached"))).isEqualTo(1);
      assertThat(c.forget(List.of(SECRET))).as("idempotent").isZero();
      assertThat(c.size()).isEqualTo(2);
      assertThat(holdsTrace(SECRET)).as("after forget, before close").isFalse();
    }
    assertReopensWithoutTheSecret();
  }

  @Test
  void erase_closedFile_forgetsThroughTheHeaderModel() throws Exception {
    fill();
    CachingEmbeddingProvider.erase(file(), c -> c.forget(List.of(SECRET)));

    assertThat(holdsTrace(SECRET)).isFalse();
    assertReopensWithoutTheSecret();
  }

  @Test
  void forgetAll_emptiesTheFileToItsHeader() throws Exception {
    fill();
    CachingEmbeddingProvider.erase(file(), CachingEmbeddingProvider::forgetAll);

    for (String t : List.of(SECRET, OTHERS.get(0))) {
      assertThat(holdsTrace(t)).isFalse();
    }
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(HASHING, file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(0, 0, 0));
      c.embedDocuments(OTHERS);
      assertThat(c.misses()).isEqualTo(2);
    }
  }

  @Test
  void erase_unreadableOrMissingFile_deletesOrIgnoresIt() throws IOException {
    CachingEmbeddingProvider.erase(file(), CachingEmbeddingProvider::forgetAll);
    assertThat(file()).doesNotExist();

    Files.createDirectories(file().getParent());
    Files.writeString(file(), "not a cache, but " + SECRET);
    CachingEmbeddingProvider.erase(file(), c -> c.forget(List.of(SECRET)));
    assertThat(file()).doesNotExist();
  }

  private void assertReopensWithoutTheSecret() {
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(HASHING, file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(2, 0, 0));
      c.embedDocuments(OTHERS);
      assertThat(c.hits()).isEqualTo(2);
      c.embedDocuments(List.of(SECRET));
      assertThat(c.misses()).as("the secret is embedded again, not read").isEqualTo(1);
    }
  }

  /**
   * Whether the cache file holds the text's hash or its vector (sparse: the whole of it, zeros
   * included).
   */
  private boolean holdsTrace(String text) throws IOException, NoSuchAlgorithmException {
    byte[] file = Files.readAllBytes(file());
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update((HASHING.modelId() + '\0').getBytes(StandardCharsets.UTF_8));
    byte[] hash = sha.digest(text.getBytes(StandardCharsets.UTF_8));
    float[] v = HASHING.embed(text);
    ByteBuffer vec = ByteBuffer.allocate(4 * v.length);
    for (float x : v) {
      vec.putFloat(x);
    }
    return indexOf(file, hash) >= 0 || indexOf(file, vec.array()) >= 0;
  }

  /** Byte search: ISO-8859-1 maps every byte to one char, so a string search is a byte search. */
  static int indexOf(byte[] hay, byte[] needle) {
    return new String(hay, StandardCharsets.ISO_8859_1)
        .indexOf(new String(needle, StandardCharsets.ISO_8859_1));
  }
}
