package io.poimen.memory.index;

import io.poimen.memory.config.TreeDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Checks {@code poimen.embedding.model} (a built-in id, or a model folder and its descriptor) and the model's size
 * against {@code poimen.vector.dimensions} as soon as the settings are known, before Spring creates any bean: a
 * mistake stops the start with its one message ({@link io.poimen.memory.config.StartRefusedException}) before the
 * web server, the database and the stores are opened. The model bean checks again when it loads the model (and
 * then also finds a model file that is not an ONNX model).
 */
public class EmbeddingModelSettingCheck implements EnvironmentPostProcessor, Ordered {
    private static final String DIMENSIONS = "poimen.vector.dimensions";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String dimensions = environment.getProperty(DIMENSIONS, String.valueOf(TreeDefaults.defaults().get(DIMENSIONS)));
        int size;
        try {
            size = Integer.parseInt(dimensions.trim());
        } catch (NumberFormatException e) {
            return; // binding the properties stops the start with the key and the value
        }
        EmbeddingModelChoice.checkSetting(environment.getProperty("poimen.embedding.model"), size);
    }

    /** After the configuration files are read (and after {@link TreeDefaults}). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
