package io.github.workqueue.sample;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may do what. In the {@code secured} profile: the health stays open (probes), every
 * other Actuator read (the endpoint, the dashboard, metrics) needs the role VIEWER or
 * OPERATOR, and every Actuator write (the queues' pause, remove and dead-letter actions)
 * the role OPERATOR, over HTTP Basic, with CSRF tokens in the {@code XSRF-TOKEN} cookie
 * that the dashboard sends back; the sample's own API stays open. In every other profile
 * the sample is open, as a demo on a developer's machine.
 */
@Configuration(proxyBeanMethods = false)
class SampleSecurity {

	@Bean
	@Profile("!secured")
	SecurityFilterChain openDemo(HttpSecurity http) {
		return open(http);
	}

	@Bean
	@Order(1)
	@Profile("secured")
	SecurityFilterChain actuator(HttpSecurity http) {
		return http.securityMatcher("/actuator/**")
			.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to("health"))
				.permitAll()
				.requestMatchers(HttpMethod.GET, "/actuator/**")
				.hasAnyRole("VIEWER", "OPERATOR")
				.anyRequest()
				.hasRole("OPERATOR"))
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.spa())
			.build();
	}

	@Bean
	@Order(2)
	@Profile("secured")
	SecurityFilterChain api(HttpSecurity http) {
		return open(http);
	}

	/** Everything open, without CSRF tokens: nothing behind it needs a login. */
	private static SecurityFilterChain open(HttpSecurity http) {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	/** Two users for the demo; take them from your identity provider instead. */
	@Bean
	@Profile("secured")
	UserDetailsService sampleUsers(@Value("${sample.security.viewer-password}") String viewerPassword,
			@Value("${sample.security.operator-password}") String operatorPassword) {
		return new InMemoryUserDetailsManager(
				User.withUsername("viewer").password("{noop}" + viewerPassword).roles("VIEWER").build(),
				User.withUsername("operator").password("{noop}" + operatorPassword).roles("OPERATOR").build());
	}

}
