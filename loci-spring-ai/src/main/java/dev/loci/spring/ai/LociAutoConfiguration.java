package dev.loci.spring.ai;

import dev.loci.Namespace;
import dev.loci.client.EmbeddedLoci;
import dev.loci.client.LociApi;
import dev.loci.client.LociClient;
import dev.loci.recall.RecallMode;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot auto-configuration: a {@link LociApi} from the {@code loci.*} properties (a server
 * client when {@code loci.url} is set, else an embedded instance in {@code loci.data-dir}), and
 * over it a {@link LociChatMemoryRepository} and a {@link LociDocumentRetriever} in {@code
 * loci.namespace}. Each bean backs off when the application defines its own; the repository is
 * registered before Spring AI's chat memory auto-configuration, so its in-memory repository backs
 * off too. Moving from embedded to a server is a change of properties, not of code.
 */
@AutoConfiguration(
    beforeName =
        "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@EnableConfigurationProperties(LociProperties.class)
public class LociAutoConfiguration {
  /** Creates the auto-configuration; Spring calls it. */
  public LociAutoConfiguration() {}

  /**
   * The API over a server ({@code loci.url}, {@code loci.token}) or an embedded instance ({@code
   * loci.data-dir}); closed with the context.
   *
   * @throws IllegalStateException if neither or both of {@code loci.url} and {@code loci.data-dir}
   *     are set
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public LociApi lociApi(LociProperties properties) {
    if (properties.serverUrl().isPresent() && properties.dataDirPath().isPresent()) {
      throw new IllegalStateException(
          "set one of loci.url (a Loci server) and loci.data-dir (an embedded instance), not"
              + " both; found loci.url="
              + properties.url()
              + " and loci.data-dir="
              + properties.dataDir());
    }
    if (properties.serverUrl().isPresent()) {
      LociClient.Builder b = LociClient.builder(properties.serverUrl().get());
      properties.bearerToken().ifPresent(b::token);
      return b.build();
    }
    return EmbeddedLoci.open(
        properties
            .dataDirPath()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "set loci.data-dir (a directory for an embedded Loci) or loci.url (a Loci"
                            + " server, with loci.token); found neither")));
  }

  /** Conversations kept as trace revision chains in {@code loci.namespace}. */
  @Bean
  @ConditionalOnMissingBean(ChatMemoryRepository.class)
  public LociChatMemoryRepository lociChatMemoryRepository(LociApi api, LociProperties properties) {
    return LociChatMemoryRepository.of(api, namespace(properties));
  }

  /** Recall in {@code loci.namespace} with {@code loci.recall.mode} and {@code loci.recall.k}. */
  @Bean
  @ConditionalOnMissingBean(DocumentRetriever.class)
  public LociDocumentRetriever lociDocumentRetriever(LociApi api, LociProperties properties) {
    String mode = properties.recall().mode();
    RecallMode parsed;
    try {
      parsed = RecallMode.parse(mode);
    } catch (RuntimeException e) {
      throw new IllegalStateException("loci.recall.mode: " + e.getMessage(), e);
    }
    try {
      return LociDocumentRetriever.of(api, namespace(properties), parsed, properties.recall().k());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("loci.recall.k: " + e.getMessage(), e);
    }
  }

  private static Namespace namespace(LociProperties properties) {
    try {
      return Namespace.of(properties.namespace());
    } catch (RuntimeException e) {
      throw new IllegalStateException("loci.namespace: " + e.getMessage(), e);
    }
  }
}
