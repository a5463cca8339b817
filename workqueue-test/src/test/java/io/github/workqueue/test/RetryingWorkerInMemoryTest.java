package io.github.workqueue.test;

import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = RetryingWorkerApplication.class)
class RetryingWorkerInMemoryTest extends RetryingWorkerTests {

}
