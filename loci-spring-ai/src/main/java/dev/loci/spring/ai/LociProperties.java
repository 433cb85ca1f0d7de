package dev.loci.spring.ai;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code loci.*} properties: where Loci is ({@code loci.data-dir} for an instance inside the
 * application, or {@code loci.url} and {@code loci.token} for a server), the namespace chat memory
 * and retrieval use, and how retrieval recalls. Immutable.
 *
 * <p>Spring binds the components and leaves those not set {@code null}, as its binder does; read
 * them through {@link #dataDirPath()}, {@link #serverUrl()} and {@link #bearerToken()}.
 *
 * @param dataDir the data directory of an embedded instance; unset when {@code url} is set
 * @param url the base URL of a Loci server, for example {@code http://127.0.0.1:7070/}
 * @param token the bearer token sent to the server; unset for a server without tokens
 * @param namespace the namespace conversations and recall use; default {@code default}
 * @param recall how the document retriever recalls
 */
@ConfigurationProperties("loci")
public record LociProperties(
    String dataDir,
    String url,
    String token,
    @DefaultValue("default") String namespace,
    @DefaultValue Recall recall) {

  /** {@code loci.data-dir}, when set and not blank. */
  public Optional<Path> dataDirPath() {
    return present(dataDir).map(Path::of);
  }

  /**
   * {@code loci.url}, when set and not blank.
   *
   * @throws IllegalStateException if it is not a URI
   */
  public Optional<URI> serverUrl() {
    return present(url)
        .map(
            u -> {
              try {
                return URI.create(u);
              } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                    "loci.url: expected a URL such as http://127.0.0.1:7070/, found '" + u + "'",
                    e);
              }
            });
  }

  /** {@code loci.token}, when set and not blank. */
  public Optional<String> bearerToken() {
    return present(token);
  }

  private static Optional<String> present(String value) {
    return Optional.ofNullable(value).filter(v -> !v.isBlank());
  }

  /**
   * The {@code loci.recall.*} properties.
   *
   * @param mode the recall mode's wire name, for example {@code hybrid} (the default) or {@code
   *     ppr}
   * @param k how many documents at most; default 5
   */
  public record Recall(@DefaultValue("hybrid") String mode, @DefaultValue("5") int k) {}
}
