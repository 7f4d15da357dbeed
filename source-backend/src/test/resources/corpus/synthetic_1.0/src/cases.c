#include <stdio.h>
int main(void) {
	printf("hello\n");
	printf("HELLO\n");
	return 0; // hello_world helloWorld
}
