package io.poimen.memory.security;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

/** HTTP security: stateless, no CSRF (bearer tokens, no cookies). */
@Configuration
public class SecurityConfig {

    @Bean
    LocalOperatorAccess localOperatorAccess() {
        return new LocalOperatorAccess();
    }

    @Bean
    @ConditionalOnWebApplication
    SecurityFilterChain api(HttpSecurity http) throws Exception {
        return http
                .csrf(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(a -> a.anyRequest().permitAll())
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .cors(Customizer.withDefaults())
                .build();
    }
}
