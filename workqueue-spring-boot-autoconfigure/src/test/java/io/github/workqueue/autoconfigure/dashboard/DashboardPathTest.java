package io.github.workqueue.autoconfigure.dashboard;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DashboardPathTest {

	@Test
	void theDefaultShouldBeUnderTheActuatorBasePath() {
		assertThat(DashboardPath.resolve(null, "/actuator")).isEqualTo("/actuator/workqueues-dashboard");
		assertThat(DashboardPath.resolve(" ", "/manage/")).isEqualTo("/manage/workqueues-dashboard");
		assertThat(DashboardPath.resolve(null, "")).isEqualTo("/workqueues-dashboard");
	}

	@Test
	void aConfiguredPathShouldStartWithOneSlashAndEndWithNone() {
		assertThat(DashboardPath.resolve("ops/queues/", "/actuator")).isEqualTo("/ops/queues");
	}

	@Test
	void theRootOrAPatternShouldBeRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> DashboardPath.resolve("/", "/actuator"))
			.withMessageContaining("workqueue.dashboard.path");
		assertThatIllegalArgumentException().isThrownBy(() -> DashboardPath.resolve("/q/{name}", "/actuator"))
			.withMessageContaining("'/q/{name}'");
	}

}
